-- :Listd open renders lists: title, headers, footers, outline rows, accessories, selection marks.
local T = dofile(os.getenv('LISTD_NVIM_ROOT') .. '/test/helpers.lua')
T.setup()

T.case('contacts: title, section headers, rows with secondary text and accessories', function()
  vim.cmd('Listd open contacts')
  T.eq('listd://contacts', vim.api.nvim_buf_get_name(0), 'buffer name')
  T.eq({
    "contacts 'Contacts' v0 · plain · selection multiple",
    '§ A',
    '    Ada Lovelace · ada@analytical.org  [1] ›',
    '    Alan Turing · alan@bletchley.uk  ›',
    '§ B',
    '    Barbara Liskov · barbara@mit.edu  ›',
    '§ C',
    '    Claude Shannon · claude@bell-labs.com  [4] ›',
  }, vim.list_slice(T.lines(), 1, 8), 'first lines')
  T.eq(1 + 17 * 2 + 1, #T.lines(), 'title + 17 headers + 18 rows') -- letter-A holds two contacts
  T.eq('ada', T.cursor_item(), 'the cursor starts on the first item')
end)

T.case('the buffer is a scratch buffer of filetype listd that cannot be edited', function()
  local bo = vim.bo
  T.eq({ 'nofile', 'wipe', false, false, 'listd' }, { bo.buftype, bo.bufhidden, bo.swapfile, bo.modifiable, bo.filetype })
  T.eq('contacts', vim.b.listd_list, 'b:listd_list')
  T.eq(-1, vim.bo.undolevels, 'no undo history for rewritten lines')
  local ok = pcall(vim.cmd, 'normal! dd')
  T.ok(not ok or #T.lines() == 36, 'dd must not delete a line')
end)

T.case('headers, selected rows and secondary text are highlighted', function()
  local ns = require('listd.buffer').namespace
  local marks = vim.api.nvim_buf_get_extmarks(0, ns, { 1, 0 }, { 1, -1 }, { details = true })
  T.ok(#marks == 1 and marks[1][4].hl_group == 'ListdHeader', 'header highlight on line 2: ' .. vim.inspect(marks))
  local groups = {}
  for _, mark in ipairs(vim.api.nvim_buf_get_extmarks(0, ns, { 2, 0 }, { 2, -1 }, { details = true })) do
    groups[mark[4].hl_group] = true
  end
  T.ok(groups.ListdSecondary and groups.ListdAccessory and groups.ListdBadge, vim.inspect(groups))
  T.eq(1, vim.fn.hlexists('ListdSelected'), 'ListdSelected is defined')
end)

T.case('selection marks come from the snapshot', function()
  local other = T.second_client()
  T.call(other, 'selection/select', { list = 'contacts', items = { 'alan', 'grace' } })
  T.wait_version(1)
  T.eq('●   Alan Turing · alan@bletchley.uk  ›', T.lines()[4], 'selected row')
  T.ok(T.lines()[4]:match('^● '), 'mark on alan: ' .. T.lines()[4])
  T.ok(T.lines()[3]:match('^  '), 'no mark on ada')
  -- A fresh buffer shows the selection it subscribed to.
  vim.cmd('Listd close')
  vim.cmd('Listd open contacts')
  T.ok(T.lines()[4]:match('^● '), 'mark after reopening')
  other:close()
end)

T.case('settings: footers, toggles, labels, badges, checkmark, pop-up menu, progress bar', function()
  vim.cmd('Listd open settings')
  T.eq({
    "settings 'Settings' v0 · grouped · selection none",
    '§ Connectivity',
    '    Airplane Mode  [off]',
    '    Wi-Fi  home-5G ›',
    '    Bluetooth  On ›',
    '    VPN  [on] ⓘ',
    '§ Notifications',
    '    Mail  [12] ›',
    '    Messages  [3] ›',
    '    Calendar  ›',
    '    Do Not Disturb · Silence calls and alerts  [off]',
    '  ⌊ Badges show how many items are waiting in each app.',
    '§ Display & Brightness',
    '    Light  ✓',
    '    Dark',
    '    Text Size  ⋯',
    '    True Tone  [on]',
    '§ Storage',
    '    Used  ██████░░░░ 64%',
    '    Offload Unused Apps  [on]',
    '    Reset All Settings',
    '  ⌊ 41.2 GB of 64 GB used.',
  }, T.lines(), 'settings lines')
end)

T.case('files: outline indentation with ▸ and ▾', function()
  vim.cmd('Listd open files')
  T.eq({
    "files 'Files' v0 · sidebar · selection single",
    '§ listd',
    '  ▾ Sources',
    '    ▸ ListModel',
    '    ▸ JSONRPC',
    '    ▾ ListServer',
    '      ▸ Handlers',
    '        Registry.swift',
    '        Session.swift',
    '    ▸ listd',
    '  ▸ Tests',
    '  ▸ Protocol',
    '    Package.swift',
    '    README.md',
  }, T.lines(), 'files lines')
end)

T.case('an item without text shows #id; a section without header shows its id', function()
  local other = T.second_client()
  T.call(other, 'list/create', { list = 'bare', content = { sections = { { id = 's1', items = { { id = 'x' }, { id = 'y', text = 'Y', selectable = false } } } } } })
  vim.cmd('Listd open bare')
  T.eq({ "bare 'bare' v0 · plain · selection single", '§ s1', '    #x', '    Y' }, T.lines())
  other:close()
end)

T.case('a list disposed by its owner says so on its title line', function()
  local other = T.second_client()
  T.call(other, 'list/create', { list = 'brief', content = { sections = { { id = 's', items = { { id = 'a', text = 'A' } } } } } })
  vim.cmd('Listd open brief')
  T.call(other, 'list/dispose', { list = 'brief' })
  T.wait(function()
    return T.lines()[1] == "brief 'brief' v0 · plain · selection single · disposed"
  end, 'the disposed title, got ' .. T.lines()[1])
  T.eq('    A', T.lines()[3], 'the last content stays')
  other:close()
end)

T.case('accessories show by type whatever their order in the array, as the spec orders them', function()
  local render = require('listd.render')
  -- The spec's table (Protocol/README.md, "Accessory order") is the plugin's.
  local readme = table.concat(vim.fn.readfile(T.root .. '/../../Protocol/README.md'), '\n')
  local at = readme:find('**Accessory order.**', 1, true)
  local spec = {}
  for order, kind in readme:sub(at, readme:find('\n\n', readme:find('| order | type |', at, true), true)):gmatch('| (%d+) | `(%w+)` |') do
    spec[kind] = tonumber(order)
  end
  T.eq(spec, render.accessory_order, 'the order table')
  local other = T.second_client()
  T.call(other, 'list/create', { list = 'order', content = { sections = { { id = 's', items = {
    { id = 'a', text = 'A', accessories = { { type = 'disclosureIndicator' }, { type = 'badge', text = '1' }, { type = 'checkmark' }, { type = 'label', text = 'L' } } },
    { id = 'b', text = 'B', accessories = { { type = 'badge', text = '2' }, { type = 'disclosureIndicator' }, { type = 'image', name = 'x' } } },
  } } } } })
  vim.cmd('Listd open order')
  T.wait(function()
    return T.lines()[4] ~= nil and T.lines()[4] ~= ''
  end, 'the rows')
  T.eq({ '    A  [1] L ✓ ›', '    B  [2] <x> ›' }, vim.list_slice(T.lines(), 3, 4), 'custom ones nearest the text, the chevron trailing-most')
  local every = {}
  for kind in pairs(spec) do
    every[#every + 1] = { type = kind }
  end
  table.sort(every, function(x, y)
    return spec[x.type] > spec[y.type]
  end)
  local shown = vim.tbl_map(function(a)
    return a.type
  end, render.ordered_accessories(every))
  local expected = vim.tbl_keys(spec)
  table.sort(expected, function(x, y)
    return spec[x] < spec[y]
  end)
  T.eq(expected, shown, 'every system accessory in the order of the table, from the reverse array')
  other:close()
end)

T.run()

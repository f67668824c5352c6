-- K: the item's details and why it last changed, as readable lines; the wording shared with listd-tui.
local T = dofile(os.getenv('LISTD_NVIM_ROOT') .. '/test/helpers.lua')
T.setup()

local other = T.second_client()

-- The floating window's lines once one is open (closing it afterwards).
local function float_lines()
  local float = T.wait(function()
    for _, win in ipairs(vim.api.nvim_list_wins()) do
      if vim.api.nvim_win_get_config(win).relative ~= '' then
        return win
      end
    end
  end, 'a floating window')
  local lines = vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(float), 0, -1, false)
  vim.api.nvim_win_close(float, true)
  return lines
end

-- Fails if a line is JSON text: a value of its own, a `"member": …` line or a bracket alone.
local function no_raw_json(lines)
  for _, line in ipairs(lines) do
    local trimmed = vim.trim(line)
    T.ok(not pcall(vim.json.decode, trimmed) or trimmed == '', 'a line is raw JSON: ' .. line)
    T.ok(not trimmed:match('^"[^"]*"%s*:') and not trimmed:match('^[%[%]{}],?$'), 'a line is raw JSON: ' .. line)
  end
end

T.case('the wording is the one listd-tui shows (clients/wording/explain-cases.json)', function()
  local path = T.root .. '/../wording/explain-cases.json'
  local cases = vim.json.decode(table.concat(vim.fn.readfile(path), '\n')).cases
  T.ok(#cases >= 4, 'the shared cases: ' .. path)
  for _, example in ipairs(cases) do
    T.eq(example.lines, require('listd.explain').lines(example.answer, example.noun), example.name)
  end
end)

T.case('K on an item no kept change concerns says so, after its details', function()
  vim.cmd('Listd open contacts')
  T.goto_item('ada')
  T.feed('K')
  local lines = float_lines()
  T.eq('id: ada', lines[1])
  T.eq('text: "Ada Lovelace"', lines[2])
  T.eq(1, #vim.tbl_filter(function(line)
    return line == 'accessories: badge "1", disclosureIndicator'
  end, lines), 'the accessories in the order the row shows them (the badge, then ›): ' .. vim.inspect(lines))
  T.eq({ '', 'Why it last changed', 'No kept change concerns this item.' }, vim.list_slice(lines, #lines - 2))
  no_raw_json(lines)
end)

T.case('K after another client changed the text: the details, then the change with old → new', function()
  local result = T.call(other, 'list/edit', {
    list = 'contacts',
    edits = { { op = 'patchItems', items = { { id = 'grace', text = 'Grace B. Hopper' } } } },
  })
  T.wait_version(result.version)
  T.goto_item('grace')
  T.feed('K')
  local lines = float_lines()
  local expected = {
    'id: grace',
    'text: "Grace B. Hopper"',
    'secondary text: "grace@navy.mil"',
    'image: "person.circle"',
    'section: letter-G · index path: [6, 0]',
    'level: 0 · parent: none · children: 0',
    'expanded: no · selected: no',
    'accessories: disclosureIndicator',
    'leading swipe actions: Favorite',
    'trailing swipe actions: Archive, Delete (destructive)',
    'context menu: Copy Email, Call, Delete (destructive)',
    'data.email: "grace@navy.mil"',
    'data.topic: "COBOL"',
    '',
    'Why it last changed',
  }
  T.eq(expected, vim.list_slice(lines, 1, #expected))
  local why = vim.list_slice(lines, #expected + 1)
  T.ok(why[1]:match('^v' .. result.version .. ' · list/edit by session %d+'), why[1])
  T.eq({ 'changed (edit 0: patchItems)', '  text: "Grace Hopper" → "Grace B. Hopper"' }, vim.list_slice(why, 2))
  no_raw_json(lines)
end)

T.case('K on a table row: its cells by column title, then its text, said not to show', function()
  vim.cmd('Listd open processes')
  T.wait(function()
    return T.view().mirror and pcall(T.goto_item, 'p1') and T.cursor_item() == 'p1'
  end, 'the p1 row')
  T.feed('K')
  local lines = float_lines()
  T.eq({
    'id: p1',
    'Command: "listd --listen --stay"',
    'PID: 4121',
    'CPU %: 2.5',
    "Memory (MB): 18.2",
    'Kind: "daemon"',
    'Started: "2026-11-23 04:00"',
    'OK: ✓',
    'text (not shown in the table): "listd"',
    'section: running · index path: [0, 0]',
  }, vim.list_slice(lines, 1, 10))
  no_raw_json(lines)
end)

T.case("K on a sorted view's row: the item and its last change in the source list, not the view's", function()
  local result = T.call(other, 'list/edit', {
    list = 'processes',
    edits = { { op = 'patchItems', items = { { id = 'p2', cells = { cpu = 99.5 } } } } },
  })
  T.wait_version(result.version)
  vim.cmd('Listd sort PID')
  T.ok(vim.api.nvim_buf_get_name(0):match('^listd://processes·nvim%-'), vim.api.nvim_buf_get_name(0))
  T.wait(function()
    return T.view().mirror and pcall(T.goto_item, 'p2') and T.cursor_item() == 'p2'
  end, 'the p2 row in the view')
  T.feed('K')
  local lines = float_lines()
  T.eq('id: p2', lines[1])
  T.ok(lines[2]:match('^list: processes %(the source of view processes·nvim%-%d+%)$'), lines[2])
  T.eq('CPU %: 99.5', lines[5])
  T.ok(vim.tbl_contains(lines, 'section: running · index path: [0, 1]'), 'the section of the source: ' .. vim.inspect(lines))
  local at = #lines
  while lines[at] ~= 'Why it last changed' do
    at = at - 1
  end
  local why = vim.list_slice(lines, at + 1)
  T.ok(why[1]:match('^v' .. result.version .. ' · list/edit by session %d+'), vim.inspect(why))
  T.eq('changed (edit 0: patchItems)', why[2])
  no_raw_json(lines)
end)

T.run()

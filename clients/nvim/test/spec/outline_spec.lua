-- zo / zc / za / zO / zC / zR / zM on the files outline, through outline/expand and outline/collapse.
local T = dofile(os.getenv('LISTD_NVIM_ROOT') .. '/test/helpers.lua')
T.setup()

local other = T.second_client()

-- Types keys and waits for the change they cause.
local function press(keys)
  local version = T.view().mirror.version
  T.feed(keys)
  T.wait_version(version + 1)
end

local function texts()
  local out = {}
  for i = 3, #T.lines() do
    out[#out + 1] = T.lines()[i]
  end
  return out
end

T.case('zo expands the folder under the cursor', function()
  vim.cmd('Listd open files')
  T.goto_item('Tests')
  press('zo')
  T.eq({ '  ▾ Tests', '    ▸ ListModelTests', '    ▸ ListdTests', '  ▸ Protocol' }, vim.list_slice(T.lines(), 11, 14))
  T.eq('Tests', T.cursor_item())
end)

T.case('zo on an expanded folder or a leaf changes nothing', function()
  local version = T.view().mirror.version
  T.feed('zo')
  T.goto_item('README.md')
  T.feed('zo')
  T.settle(200)
  T.eq(version, T.view().mirror.version)
end)

T.case('zc on a child collapses its parent and the cursor goes to the parent', function()
  T.goto_item('Tests/ListdTests')
  press('zc')
  T.eq('Tests', T.cursor_item())
  T.eq('  ▸ Tests', T.lines()[11])
  T.eq(nil, T.view().rendered.line_of['i:Tests/ListdTests'], 'children hidden')
end)

T.case('za toggles: expands a collapsed folder, collapses an expanded one', function()
  T.goto_item('Protocol')
  press('za')
  T.eq('  ▾ Protocol', T.lines()[vim.fn.line('.')])
  T.ok(T.view().rendered.line_of['i:Protocol/examples'], 'children shown')
  press('za')
  T.eq('  ▸ Protocol', T.lines()[vim.fn.line('.')])
  T.eq('Protocol', T.cursor_item())
end)

T.case('zO expands a subtree, zC collapses it', function()
  T.goto_item('Tests')
  press('zO')
  T.eq({ '  ▾ Tests', '    ▾ ListModelTests', '        SnapshotTests.swift', '        MirrorPropertyTests.swift', '    ▾ ListdTests' },
    vim.list_slice(T.lines(), 11, 15))
  T.goto_item('Tests/ListModelTests/SnapshotTests.swift')
  press('zC')
  T.eq('Tests/ListModelTests', T.cursor_item(), 'the cursor goes to the collapsed parent')
  T.eq('    ▸ ListModelTests', T.lines()[vim.fn.line('.')])
end)

T.case('zR expands everything, zM collapses everything', function()
  T.goto_item('README.md')
  press('zR')
  T.eq(2 + 38, #T.lines(), 'title, header and all 38 items')
  for _, line in ipairs(texts()) do
    T.ok(not line:find('▸'), 'nothing collapsed: ' .. line)
  end
  T.eq('README.md', T.cursor_item())
  T.goto_item('Sources/ListServer/Handlers/Events.swift')
  press('zM')
  T.eq({ '  ▸ Sources', '  ▸ Tests', '  ▸ Protocol', '    Package.swift', '    README.md' }, texts())
  T.eq('Sources', T.cursor_item(), 'the cursor goes to the visible ancestor')
end)

T.case('outline changes are the list’s: another client sees them', function()
  local info = T.call(other, 'query/item', { list = 'files', item = 'Sources' }).item
  T.eq(false, info.expanded == true, 'collapsed for everyone')
  T.call(other, 'outline/expand', { list = 'files', item = 'Protocol' })
  T.wait(function()
    return T.lines()[5] == '  ▾ Protocol'
  end, 'the other client’s expand')
end)

T.run()

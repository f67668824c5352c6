-- Another client changes the list: the buffer follows, the cursor stays on its item, the view stays put.
local T = dofile(os.getenv('LISTD_NVIM_ROOT') .. '/test/helpers.lua')
T.setup()

local other = T.second_client()
local version = 0

-- An edit by the other client; waits until the buffer has it.
local function edit(edits)
  local result = T.call(other, 'list/edit', { list = 'contacts', edits = edits })
  version = result.version
  T.wait_version(version)
  return result
end

T.case('an insert before the cursor item moves the line, not the cursor off the item', function()
  vim.cmd('Listd open contacts')
  T.goto_item('claude')
  T.eq(8, vim.fn.line('.'), 'claude is on line 8')
  edit({ { op = 'insertItems', before = 'ada', items = { { id = 'aaron', text = 'Aaron Swartz' }, { id = 'abe', text = 'Abe' } } } })
  T.eq('claude', T.cursor_item(), 'cursor item')
  T.eq(10, vim.fn.line('.'), 'claude moved down two lines')
  T.eq({ '§ A', '    Aaron Swartz', '    Abe', '    Ada Lovelace · ada@analytical.org  [1] ›' }, vim.list_slice(T.lines(), 2, 5))
  T.ok(T.lines()[1]:match(' v1 '), 'title shows the version: ' .. T.lines()[1])
end)

T.case('deleting the cursor item moves the cursor to the next item', function()
  T.goto_item('alan')
  edit({ { op = 'deleteItems', items = { 'alan' } } })
  T.eq('barbara', T.cursor_item(), 'the next item')
  T.eq(nil, T.view().rendered.line_of['i:alan'], 'alan is gone')
end)

T.case('deleting the last item moves the cursor to the previous one', function()
  T.goto_item('whitfield')
  edit({ { op = 'deleteItems', items = { 'whitfield' } } })
  T.eq('tony', T.cursor_item(), 'the previous item')
end)

T.case('a payload change rewrites the row in place', function()
  T.goto_item('grace')
  local line = vim.fn.line('.')
  edit({ { op = 'updateItems', items = { { id = 'grace', text = 'Rear Admiral Grace Hopper', accessories = { { type = 'badge', text = '9' } } } } } })
  T.eq('    Rear Admiral Grace Hopper  [9]', T.lines()[line])
  T.eq({ 'grace', line }, { T.cursor_item(), vim.fn.line('.') })
end)

T.case('sections inserted, moved and deleted around the cursor', function()
  T.goto_item('donald')
  edit({
    { op = 'insertSections', before = 'letter-A', sections = { { id = 'starred', header = 'Starred', footer = '2 people', items = { { id = 'linus', text = 'Linus' }, { id = 'guido', text = 'Guido' } } } } },
    { op = 'moveSection', section = 'letter-D', after = 'letter-W' },
    { op = 'deleteSections', sections = { 'letter-B' } },
  })
  T.eq('donald', T.cursor_item(), 'cursor item')
  T.eq({ '§ Starred', '    Linus', '    Guido', '  ⌊ 2 people', '§ A' }, vim.list_slice(T.lines(), 2, 6))
  T.eq({ '§ D', '    Donald Knuth · don@stanford.edu  ›' }, vim.list_slice(T.lines(), #T.lines() - 1, #T.lines()))
  T.eq(#T.lines(), vim.fn.line('.'), 'donald is last')
end)

T.case('a move carries the cursor with the item', function()
  T.goto_item('ken')
  edit({ { op = 'moveItem', item = 'ken', before = 'linus' } })
  T.eq({ 'ken', 3 }, { T.cursor_item(), vim.fn.line('.') })
end)

T.case('the window keeps the cursor item at the same screen row', function()
  vim.cmd('resize 10')
  T.goto_item('margaret')
  vim.cmd('normal! zt')
  local top = vim.fn.line('w0')
  T.eq(vim.fn.line('.'), top, 'margaret at the top')
  edit({ { op = 'appendItems', section = 'starred', items = { { id = 'x1', text = 'X1' }, { id = 'x2', text = 'X2' }, { id = 'x3', text = 'X3' } } } })
  T.eq('margaret', T.cursor_item())
  T.eq(top + 3, vim.fn.line('w0'), 'the view scrolled with the item')
  T.eq(vim.fn.line('.'), vim.fn.line('w0'), 'margaret still at the top')
  vim.cmd('only')
end)

T.case('a replace of the whole content keeps the cursor on a surviving item', function()
  T.goto_item('radia')
  local result = T.call(other, 'list/replace', { list = 'contacts', content = { sections = {
    { id = 'all', header = 'Everyone', items = { { id = 'edsger', text = 'Edsger' }, { id = 'radia', text = 'Radia' } } },
  } } })
  T.wait_version(result.version)
  T.eq({ "contacts 'Contacts' v" .. result.version .. ' · plain · selection multiple', '§ Everyone', '    Edsger', '    Radia' }, T.lines())
  T.eq('radia', T.cursor_item())
end)

T.case('the mirror equals a fresh snapshot after all that', function()
  local fresh = T.call(other, 'list/subscribe', { list = 'contacts', snapshot = 'full' }).lists[1]
  local mirror = T.view().mirror
  T.eq(fresh.version, mirror.version, 'version')
  T.eq(fresh.snapshot, mirror:snapshot(), 'snapshot')  -- deep equality: JSON key order is arbitrary
end)

T.case('the live list changes every second and the buffer follows', function()
  vim.cmd('Listd open live')
  local start = T.view().mirror.version
  T.wait_version(start + 2)
  local fresh = T.call(other, 'list/subscribe', { list = 'live', snapshot = 'none' }).lists[1]
  T.wait_version(fresh.version)
  T.ok(T.lines()[1]:match("^live 'Build Queue' v%d+"), T.lines()[1])
  T.ok(vim.tbl_contains(T.lines(), '§ Running') and vim.tbl_contains(T.lines(), '§ Done'), 'sections')
end)

T.run()

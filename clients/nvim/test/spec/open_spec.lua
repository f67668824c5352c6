-- Opening a list that does not exist: a message says so, and the buffer fills when the list is created.
local T = dofile(os.getenv('LISTD_NVIM_ROOT') .. '/test/helpers.lua')
T.setup()

local other = T.second_client()
local missing = "listd: no list 'nosuch' (yet): its buffer shows it when it is created"

-- Neovim's message history (:messages), where a lost message is missing.
local function history()
  return vim.split(vim.fn.execute('messages'), '\n', { trimempty = true })
end

local function content(id)
  return { sections = { { id = 's', header = 'S', items = { { id = id, text = id:upper() } } } } }
end

T.case(':Listd open of a list that does not exist says so, in the title and in a message', function()
  vim.cmd('messages clear')
  local from = #T.messages + 1
  vim.cmd('Listd open nosuch')
  T.eq({ "nosuch 'nosuch' · plain · selection single · no such list yet" }, T.lines())
  T.wait(function()
    return #T.notified(from) > 0
  end, 'the message')
  T.eq({ missing }, T.notified(from, vim.log.levels.WARN))
  T.ok(vim.tbl_contains(history(), missing), 'in :messages: ' .. vim.inspect(history()))
  vim.cmd('messages clear')
end)

T.case('the buffer fills when another client creates the list, the cursor on its first item', function()
  T.call(other, 'list/create', { list = 'nosuch', content = content('a') })
  T.wait(function()
    return #T.lines() == 3
  end, 'the list, got ' .. vim.inspect(T.lines()))
  T.eq({ "nosuch 'nosuch' v0 · plain · selection single", '§ S', '    A' }, T.lines())
  T.eq('a', T.cursor_item())
  -- Live from then on.
  local result = T.call(other, 'list/edit', { list = 'nosuch', edits = { { op = 'appendItems', items = { { id = 'b', text = 'B' } } } } })
  T.wait_version(result.version)
  T.eq('    B', T.lines()[4])
end)

T.case('a list disposed and created again fills its buffer again', function()
  T.call(other, 'list/dispose', { list = 'nosuch' })
  T.wait(function()
    return T.lines()[1]:match(' · disposed$')
  end, 'disposed, got ' .. T.lines()[1])
  T.call(other, 'list/create', { list = 'nosuch', content = content('c') })
  T.wait(function()
    return T.lines()[3] == '    C'
  end, 'the new list, got ' .. vim.inspect(T.lines()))
  T.eq({ "nosuch 'nosuch' v0 · plain · selection single", '§ S', '    C' }, T.lines())
  vim.cmd('bwipeout')
end)

T.case('typed by the user, :Listd open of a missing list shows the message too', function()
  vim.cmd('messages clear')
  local from = #T.messages + 1
  T.feed(':Listd open later<CR>')
  T.eq('listd://later', vim.api.nvim_buf_get_name(0))
  T.wait(function()
    return #T.notified(from) > 0
  end, 'the message')
  local message = "listd: no list 'later' (yet): its buffer shows it when it is created"
  T.ok(vim.tbl_contains(history(), message), 'in :messages: ' .. vim.inspect(history()))
  vim.cmd('messages clear')
  T.call(other, 'list/create', { list = 'later', content = content('l') })
  T.wait(function()
    return T.lines()[3] == '    L'
  end, 'the list, got ' .. vim.inspect(T.lines()))
  vim.cmd('bwipeout')
end)

T.run()

-- :checkhealth listd (binary, version, connection) and :help listd with up-to-date tags.
local T = dofile(os.getenv('LISTD_NVIM_ROOT') .. '/test/helpers.lua')
T.setup({ socket = false })

local function checkhealth()
  vim.cmd('checkhealth listd')
  local text = table.concat(T.lines(), '\n')
  vim.cmd('tabclose')
  return text
end

T.case(':checkhealth listd reports the binary and its version', function()
  local text = checkhealth()
  T.ok(text:find('binary: ' .. T.bin, 1, true), text)
  T.ok(text:find('version: listd 0.1.0 (protocol 1)', 1, true), text)
  T.ok(text:find('not connected', 1, true), text)
  T.ok(not text:find('ERROR'), text)
end)

T.case(':checkhealth listd reports the connection', function()
  vim.cmd('Listd demo')
  local text = checkhealth()
  T.ok(text:find('connected over stdio to ' .. T.bin .. ' --demo: listd 0.1.0, protocol 1, session 1', 1, true), text)
end)

T.case(':checkhealth listd reports a missing binary as an error', function()
  require('listd').setup({ cmd = { 'no-such-listd' } })
  local text = checkhealth()
  T.ok(text:find('ERROR') and text:find('binary `no-such-listd` not found', 1, true), text)
  require('listd').setup({ cmd = { T.bin } })
end)

T.case(':help listd and its tags open the help file', function()
  for _, tag in ipairs({ 'listd', ':Listd', ':Listd-open', 'listd-setup', 'listd-keymaps', 'listd-health', 'listd.setup()', ':Listd-sort', ':Listd-filter', 'listd-table', 'listd-empty' }) do
    vim.cmd('help ' .. vim.fn.escape(tag, ' '))
    T.ok(vim.api.nvim_buf_get_name(0):match('clients/nvim/doc/listd%.txt$'), tag .. ' opened ' .. vim.api.nvim_buf_get_name(0))
    T.ok(vim.api.nvim_get_current_line():find('*' .. tag .. '*', 1, true), tag .. ': ' .. vim.api.nvim_get_current_line())
    vim.cmd('helpclose')
  end
end)

T.case('doc/tags is what :helptags generates', function()
  local dir = vim.fn.tempname()
  vim.fn.mkdir(dir, 'p')
  vim.fn.writefile(vim.fn.readfile(T.root .. '/doc/listd.txt', 'b'), dir .. '/listd.txt', 'b')
  vim.cmd('helptags ' .. vim.fn.fnameescape(dir))
  T.eq(vim.fn.readfile(dir .. '/tags'), vim.fn.readfile(T.root .. '/doc/tags'), 'regenerate with :helptags clients/nvim/doc')
end)

T.run()

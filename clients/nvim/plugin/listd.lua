-- Defines :Listd, the listd:// buffers and the highlight groups; the rest loads on first use.
if vim.g.loaded_listd then
  return
end
vim.g.loaded_listd = true

vim.api.nvim_create_user_command('Listd', function(opts)
  require('listd.commands').run(opts.args)
end, {
  nargs = '*',
  desc = 'listd: lists, open {list}, close, demo, connect, disconnect, info',
  complete = function(arglead, cmdline)
    return require('listd.commands').complete(arglead, cmdline)
  end,
})

local group = vim.api.nvim_create_augroup('listd', { clear = true })

-- `:edit listd://contacts` (and :Listd open) render the list in that buffer.
vim.api.nvim_create_autocmd('BufReadCmd', {
  group = group,
  pattern = 'listd://*',
  callback = function(args)
    local list = require('listd.buffer').list_of(vim.api.nvim_buf_get_name(args.buf))
    if list then
      require('listd.buffer').attach(args.buf, list)
    end
  end,
})

require('listd.highlights').define()
vim.api.nvim_create_autocmd('ColorScheme', {
  group = group,
  callback = function()
    require('listd.highlights').define()
  end,
})

-- Figures for a large list (issue 15): a list of LISTD_BENCH_ROWS rows (default 1,000,000) made with listctl; a
-- separate headless Neovim (test/bench_child.lua) opens it and takes changes; its RSS beside an empty Neovim's,
-- both measured in this run. Prints the figures (never a timed assertion); checks only that it all worked.
-- LISTD_BENCH_EDITS: changes of each kind measured (default 3, the median printed).
local T = dofile(os.getenv('LISTD_NVIM_ROOT') .. '/test/helpers.lua')

local rows = tonumber(os.getenv('LISTD_BENCH_ROWS') or '') or 1000000
-- LISTD_BENCH_PLUGIN measures another copy of the plugin (e.g. an older commit's clients/nvim).
local plugin = os.getenv('LISTD_BENCH_PLUGIN') or T.root
local uv = vim.uv or vim.loop

local function rss_kb(pid)
  return dofile(T.root .. '/lua/listd/platform.lua').resident_kib(pid)
end

-- Runs `cmd` to the end; returns its exit code.
local function run(cmd, env)
  local code
  local job = vim.fn.jobstart(cmd, { env = env, on_exit = function(_, c)
    code = c
  end })
  T.ok(job > 0, 'cannot start ' .. cmd[1])
  T.wait(function()
    return code ~= nil
  end, cmd[1] .. ' to finish', 600000)
  return code
end

T.case(string.format('a %d-row list: open, changes, scrolling and memory (figures)', rows), function()
  local dir = vim.fn.tempname()
  vim.fn.mkdir(dir, 'p')
  -- The content, written in pieces (this Neovim is not the one measured).
  local content = dir .. '/content.json'
  local f = assert(io.open(content, 'w'))
  f:write('{"sections":[{"id":"all","header":"All","items":[')
  local chunk = {}
  for i = 1, rows do
    chunk[#chunk + 1] = string.format('{"id":"i%d","text":"Item %d"}', i, i)
    if #chunk == 10000 or i == rows then
      f:write(table.concat(chunk, ','), i == rows and '' or ',')
      chunk = {}
    end
  end
  f:write(']}]}')
  f:close()
  local listctl = vim.fn.fnamemodify(T.bin, ':h') .. '/listctl'
  local start = uv.hrtime()
  T.eq(0, run({ listctl, '--socket', T.socket, '--timeout', '600', 'create', 'big', '--content', content }), 'listctl create')
  T.out(string.format('  created %d rows in %.1f s (listctl)', rows, (uv.hrtime() - start) / 1e9))
  os.remove(content)

  -- An empty Neovim, the baseline, alive beside the measured one.
  local empty = vim.fn.jobstart({ 'nvim', '--headless', '-u', 'NONE', '-i', 'NONE', '-n' })
  T.ok(empty > 0, 'an empty nvim')
  T.settle(1000)
  local empty_kb = rss_kb(vim.fn.jobpid(empty))

  local out = dir .. '/figures.json'
  local child = dir .. '/child.log'
  local code = run({ 'sh', '-c', string.format(
    "nvim --headless -u NONE -i NONE -n --cmd 'set rtp^=%s' -c 'luafile %s' >%s 2>&1",
    plugin, T.root .. '/test/bench_child.lua', child) }, {
    LISTD_SOCKET = T.socket, BENCH_LIST = 'big', BENCH_ROWS = tostring(rows), BENCH_OUT = out,
    BENCH_EDITS = os.getenv('LISTD_BENCH_EDITS') or '3',
  })
  local empty_after_kb = rss_kb(vim.fn.jobpid(empty))
  vim.fn.jobstop(empty)
  local text = table.concat(vim.fn.readfile(out), '\n')
  T.eq(0, code, 'the measured nvim exited: ' .. table.concat(vim.fn.readfile(child), '\n'))
  local figures = vim.json.decode(text)
  T.eq(nil, figures.error, 'the measured nvim failed')
  figures.rss_empty_kb = math.max(empty_kb or 0, empty_after_kb or 0)
  T.out(string.format('  plugin %s', plugin))
  T.out(string.format('  open: %.0f ms (%d lines)', figures.open_ms, figures.lines))
  for _, kind in ipairs({ 'inside', 'outside', 'insert_above', 'insert_10000_above' }) do
    T.out(string.format('  change %s the window (medians): the plugin %.1f ms (applying and drawing); end to end %.1f ms, of which the daemon answering the edit %.1f ms',
      (kind:gsub('_', ' ')), figures['change_' .. kind .. '_plugin_ms'], figures['change_' .. kind .. '_ms'], figures['change_' .. kind .. '_answer_ms']))
  end
  T.out(string.format('  G to the last row drawn: %.0f ms', figures.scroll_end_ms))
  T.out(string.format('  RSS: empty nvim %.1f MB; with the list open %.1f MB (+%.1f MB), after the changes and G %.1f MB (+%.1f MB)',
    figures.rss_empty_kb / 1024, figures.rss_open_kb / 1024, (figures.rss_open_kb - figures.rss_empty_kb) / 1024,
    figures.rss_end_kb / 1024, (figures.rss_end_kb - figures.rss_empty_kb) / 1024))
  T.eq(rows + 2, figures.lines, 'a line per row, the title and the header')
  vim.fn.delete(dir, 'rf')
end)

T.run()

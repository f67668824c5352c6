-- The measured Neovim of test/spec/bench_spec.lua: opens a large list, changes it, and writes its figures as JSON.
-- Environment: LISTD_SOCKET, LISTD_NVIM_ROOT, BENCH_LIST (the list), BENCH_ROWS (its rows), BENCH_OUT (the file),
-- BENCH_EDITS (changes of each kind, default 7).
local uv = vim.uv or vim.loop
local list, rows, out = os.getenv('BENCH_LIST'), tonumber(os.getenv('BENCH_ROWS')), os.getenv('BENCH_OUT')
local figures = {}

local function rss_kb()
  return require('listd.platform').resident_kib()
end

local function finish(err)
  figures.error = err
  local f = assert(io.open(out, 'w'))
  f:write(vim.json.encode(figures))
  f:close()
  vim.cmd('qall!')
end

local function median(values)
  table.sort(values)
  return values[math.floor((#values + 1) / 2)]
end

local ok, err = pcall(function()
  vim.cmd('runtime! plugin/listd.lua')
  require('listd').setup({ socket = os.getenv('LISTD_SOCKET'), timeout = 120000 })
  local buffer = require('listd.buffer')
  local rpc = require('listd.rpc')
  vim.o.lines, vim.o.columns = 50, 120
  figures.rss_start_kb = rss_kb()

  -- Open: from :Listd open until the rows on screen show their text.
  local start = uv.hrtime()
  vim.cmd('Listd open ' .. list)
  local view = buffer.find(list)
  local shown = vim.wait(120000, function()
    local line = vim.api.nvim_buf_get_lines(view.buf, 2, 3, false)[1]
    return view.mirror and not view.draw_pending and line and line:match('Item 1$') ~= nil
  end, 1)
  assert(shown, 'the first rows never showed')
  figures.open_ms = (uv.hrtime() - start) / 1e6
  figures.lines = vim.api.nvim_buf_line_count(view.buf)
  collectgarbage()
  figures.rss_open_kb = rss_kb()

  -- A plugin without view.stats (an older one): time its change handler and its draws from outside.
  if not view.stats then
    local stats = { changes = 0, change_ns = 0, draws = 0, draw_ns = 0 }
    local subscriber = require('listd.session').subscribers[list]
    local on_change, draw = subscriber.on_change, buffer.draw
    subscriber.on_change = function(...)
      local t0 = uv.hrtime()
      on_change(...)
      stats.change_ns = stats.change_ns + uv.hrtime() - t0
    end
    buffer.draw = function(...)
      local t0 = uv.hrtime()
      draw(...)
      stats.draw_ns = stats.draw_ns + uv.hrtime() - t0
    end
    figures.timed_from_outside = true
    view.stats = stats
  end

  -- Changes by another client: each edit, until the buffer has drawn its version.
  local other = assert(rpc.connect(os.getenv('LISTD_SOCKET'), {}))
  assert(rpc.initialize(other))
  local function timed(edits)
    local stats = view.stats or { change_ns = 0, draw_ns = 0 }
    local before = (stats.change_ns or 0) + (stats.draw_ns or 0)
    local t0 = uv.hrtime()
    local result = assert(other:request_sync('list/edit', { list = list, edits = edits }, 60000))
    local answered = (uv.hrtime() - t0) / 1e6
    assert(vim.wait(60000, function()
      return view.mirror and view.mirror.version >= result.version and not view.draw_pending
    end, 1), 'the buffer never reached v' .. result.version)
    local total = (uv.hrtime() - t0) / 1e6
    stats = view.stats or { change_ns = 0, draw_ns = 0 }
    return total, ((stats.change_ns or 0) + (stats.draw_ns or 0) - before) / 1e6, answered
  end
  local kinds = {
    inside = function(i)
      return { { op = 'updateItems', items = { { id = 'i10', text = 'Item 10 v' .. i } } } }
    end,
    outside = function(i)
      local id = 'i' .. math.floor(rows / 2)
      return { { op = 'updateItems', items = { { id = id, text = 'Item v' .. i } } } }
    end,
    insert_above = function(i)
      return { { op = 'insertItems', before = 'i1', items = { { id = 'new' .. i, text = 'New ' .. i } } } }
    end,
    insert_10000_above = function(i)
      local items = {}
      for k = 1, 10000 do
        items[k] = { id = 'many' .. i .. '-' .. k, text = 'Many ' .. k }
      end
      return { { op = 'insertItems', before = 'i1', items = items } }
    end,
  }
  for _, kind in ipairs({ 'inside', 'outside', 'insert_above', 'insert_10000_above' }) do
    local totals, plugin, answered = {}, {}, {}
    for i = 1, tonumber(os.getenv('BENCH_EDITS') or '') or 7 do
      totals[i], plugin[i], answered[i] = timed(kinds[kind](i))
    end
    figures['change_' .. kind .. '_answer_ms'] = median(answered)
    figures['change_' .. kind .. '_ms'] = median(totals)
    figures['change_' .. kind .. '_plugin_ms'] = median(plugin)
  end

  -- Scrolling to the end: until the last rows show their text.
  start = uv.hrtime()
  vim.cmd('normal! G')
  assert(vim.wait(60000, function()
    local last = vim.api.nvim_buf_get_lines(view.buf, -2, -1, false)[1]
    return last and last:match('Item ' .. rows .. '$') ~= nil
  end, 1), 'the last rows never showed')
  figures.scroll_end_ms = (uv.hrtime() - start) / 1e6
  collectgarbage()
  figures.rss_end_kb = rss_kb()
  other:close()
end)
finish(not ok and tostring(err) or nil)

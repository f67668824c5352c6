-- List buffers (`listd://LIST`): subscribe, mirror each didChange, re-render with the cursor kept on its item.
local config = require('listd.config')
local messages = require('listd.messages')
local mirror = require('listd.mirror')
local render = require('listd.render')
local session = require('listd.session')
local viewport = require('listd.viewport')

local api = vim.api
local M = {
  ---Views by buffer number: {buf, list, mirror, info, status, rendered, queue}.
  views = {},
}

local ns = api.nvim_create_namespace('listd')

-- The error of list/subscribe for a list that does not exist.
local UNKNOWN_LIST = -32010
M.namespace = ns

---The view of a list, if a buffer shows it.
---@param list string
---@return table|nil
function M.find(list)
  for _, view in pairs(M.views) do
    if view.list == list then
      return view
    end
  end
  return nil
end

---The list id of a `listd://LIST` buffer name.
---@param name string
---@return string|nil
function M.list_of(name)
  local list = name:match('^listd://(.+)$')
  return list
end

-- Per line, its text and highlights: what decides whether the buffer line must be rewritten.
local function signatures(rendered)
  local sigs = {}
  for i, line in ipairs(rendered.lines) do
    sigs[i] = line
  end
  for _, h in ipairs(rendered.highlights) do
    sigs[h[1] + 1] = sigs[h[1] + 1] .. '\0' .. h[2] .. ':' .. h[3] .. h[4]
  end
  return sigs
end

-- Where the cursor goes after a change: its item's new line; if the item is gone, the nearest
-- visible ancestor (a collapse hid it), else the next surviving item, else the previous one.
local function resolve(old, new, lnum)
  if not old then
    return nil
  end
  local key = old.keys[lnum]
  if key and new.line_of[key] then
    return new.line_of[key]
  end
  local function item_at(l)
    local k = old.keys[l]
    return k and k:sub(1, 2) == 'i:' and new.line_of[k] or nil
  end
  if key and key:sub(1, 2) == 'i:' then
    local row, seen = old.rows[lnum], {}
    while row and type(row.parent) == 'string' and not seen[row.parent] do
      seen[row.parent] = true
      local parent = 'i:' .. row.parent
      if new.line_of[parent] then
        return new.line_of[parent]
      end
      row = old.rows[old.line_of[parent] or 0]
    end
    for l = lnum + 1, #old.lines do
      if item_at(l) then
        return item_at(l)
      end
    end
    for l = lnum - 1, 1, -1 do
      if item_at(l) then
        return item_at(l)
      end
    end
  end
  return math.min(lnum, #new.lines)
end

-- Rewrites only the lines that changed, so unchanged lines keep their highlights and marks.
local function write(buf, old, new)
  local old_sigs = old and old.sigs or {}
  local old_count = old and #old.lines or api.nvim_buf_line_count(buf)
  local sigs = new.sigs
  local first = 1
  while first <= old_count and first <= #sigs and old_sigs[first] == sigs[first] do
    first = first + 1
  end
  local last_old, last_new = old_count, #sigs
  while last_old >= first and last_new >= first and old_sigs[last_old] == sigs[last_new] do
    last_old, last_new = last_old - 1, last_new - 1
  end
  if first > last_old and first > last_new then
    return
  end
  vim.bo[buf].modifiable = true
  api.nvim_buf_set_lines(buf, first - 1, last_old, false, vim.list_slice(new.lines, first, last_new))
  vim.bo[buf].modifiable = false
  vim.bo[buf].modified = false
  api.nvim_buf_clear_namespace(buf, ns, first - 1, last_new)
  for _, h in ipairs(new.highlights) do
    if h[1] >= first - 1 and h[1] < last_new then
      api.nvim_buf_set_extmark(buf, ns, h[1], h[2], { end_col = h[3], hl_group = h[4] })
    end
  end
end

---Renders the view into its buffer, keeping each window's cursor on its item and its top line on its
---text (see listd.viewport).
---@param view table
function M.draw(view)
  local buf = view.buf
  if not api.nvim_buf_is_loaded(buf) then
    return -- writing to an unloaded buffer would load it again (BufReadCmd)
  end
  local new = render.render(view.mirror, view.info or { list = view.list }, view.status)
  new.sigs = signatures(new)
  local old = view.rendered
  local windows = {}
  for _, win in ipairs(vim.fn.win_findbuf(buf)) do
    api.nvim_win_call(win, function()
      windows[#windows + 1] = { win = win, view = vim.fn.winsaveview() }
    end)
  end
  write(buf, old, new)
  view.rendered = new
  for _, w in ipairs(windows) do
    local lnum = resolve(old, new, w.view.lnum)
    if lnum then
      local saved = w.view
      api.nvim_win_call(w.win, function()
        local height, scrolloff = api.nvim_win_get_height(w.win), vim.api.nvim_eval('&scrolloff')
        vim.fn.winrestview({
          lnum = lnum,
          col = saved.col,
          curswant = saved.curswant,
          topline = viewport.topline(old, new, saved.topline, lnum, height, scrolloff),
          leftcol = saved.leftcol,
        })
      end)
    end
  end
end

-- Draws once per batch of notifications. A buffer that cannot change right now (text locked, e.g.
-- in the command-line window) is drawn a moment later; other failures are reported once.
local function schedule_draw(view)
  if view.draw_pending then
    return
  end
  view.draw_pending = true
  vim.schedule(function()
    view.draw_pending = false
    if M.views[view.buf] ~= view then
      return
    end
    local ok, err = pcall(M.draw, view)
    if not ok then
      view.draw_pending = true
      vim.defer_fn(function()
        view.draw_pending = false
        schedule_draw(view)
      end, 200)
      if not tostring(err):match('E565') and not tostring(err):match('E11') and not view.draw_error then
        view.draw_error = tostring(err)
        session.notify(view.list .. ': cannot draw: ' .. view.draw_error, vim.log.levels.ERROR)
      end
    end
  end)
end

-- Applies a didChange; a change that does not fit the mirror makes the view resubscribe.
local function on_change(view, params)
  if not view.mirror then
    view.queue[#view.queue + 1] = params
    return
  end
  if type(params.version) ~= 'number' or params.version <= view.mirror.version then
    return -- already in the snapshot we subscribed at
  end
  local ok, why = mirror.try(view.mirror.apply_did_change, view.mirror, params)
  if not ok then
    session.notify(view.list .. ': resynchronising (' .. why .. ')', vim.log.levels.WARN)
    M.subscribe(view)
    return
  end
  if type(params.changeset.selectionMode) == 'string' and view.info then
    view.info.selectionMode = params.changeset.selectionMode
  end
  schedule_draw(view)
end

---Subscribes the view to its list with a full snapshot (the mirror's start); waits when `wait`.
---@param view table
---@param wait boolean|nil
---@param drawn function|nil called after the first draw
function M.subscribe(view, wait, drawn)
  if not session.connected() then
    view.status = 'disconnected'
    schedule_draw(view)
    return
  end
  view.mirror, view.queue = nil, {}
  local done = false
  session.conn:request('list/subscribe', { list = view.list, snapshot = 'full' }, function(err, result)
    done = true
    if M.views[view.buf] ~= view then
      return
    end
    if err and err.code == UNKNOWN_LIST then
      view.status = 'no such list yet'
      session.notify("no list '" .. view.list .. "' (yet): its buffer shows it when it is created", vim.log.levels.WARN)
    elseif err then
      view.status = 'error: ' .. tostring(err.message)
      session.notify(view.list .. ': ' .. tostring(err.message), vim.log.levels.ERROR)
    else
      local entry = result.lists[1]
      local ok, why = mirror.try(function()
        view.mirror = mirror.from_subscribe(entry)
      end)
      if not ok then
        view.status = 'bad snapshot'
        session.notify(view.list .. ': ' .. why, vim.log.levels.ERROR)
      else
        view.info, view.status = entry.info, nil
        local queue = view.queue
        view.queue = {}
        for _, params in ipairs(queue) do
          on_change(view, params)
        end
      end
    end
    M.draw(view)
    if drawn then
      drawn()
    end
  end)
  if wait then
    messages.wait(config.options.timeout, function()
      return done
    end, 5)
  end
end

-- List buffers read like a list: no wrapping, a cursor line, no folds or spelling.
local function window_options(buf)
  for _, win in ipairs(vim.fn.win_findbuf(buf)) do
    vim.wo[win].wrap = false
    vim.wo[win].cursorline = true
    vim.wo[win].foldenable = false
    vim.wo[win].spell = false
    vim.wo[win].list = false
  end
end

local function first_item_line(view)
  for l = 1, #(view.rendered and view.rendered.lines or {}) do
    local key = view.rendered.keys[l]
    if key and key:sub(1, 2) == 'i:' then
      return l
    end
  end
  return 1
end

-- Windows of a freshly filled buffer whose cursor is on the title go to the first item.
local function to_first_item(view)
  for _, win in ipairs(vim.fn.win_findbuf(view.buf)) do
    if api.nvim_win_get_cursor(win)[1] == 1 then
      api.nvim_win_set_cursor(win, { first_item_line(view), 0 })
    end
  end
end

-- Unsubscribes when the buffer goes away.
local function detach(view)
  if M.views[view.buf] ~= view then
    return
  end
  M.views[view.buf] = nil
  if session.subscribers[view.list] and session.subscribers[view.list].view == view then
    session.subscribers[view.list] = nil
    session.request('list/unsubscribe', { list = view.list })
  end
end

local function attach(buf, list)
  local view = M.views[buf]
  if view and view.list ~= list then
    detach(view)
    view = nil
  end
  local conn, err = session.ensure() -- before registering: a new connection resubscribes registered views
  if not view then
    view = { buf = buf, list = list, queue = {} }
    M.views[buf] = view
    local bo = vim.bo[buf]
    bo.buftype, bo.bufhidden, bo.swapfile, bo.modifiable = 'nofile', 'wipe', false, false
    bo.undolevels = -1 -- a live list rewrites lines every second: keep no undo history
    bo.filetype = 'listd'
    api.nvim_buf_set_var(buf, 'listd_list', list)
    api.nvim_create_autocmd({ 'BufWipeout', 'BufDelete', 'BufUnload' }, {
      buffer = buf,
      once = true,
      callback = function()
        detach(view)
      end,
    })
    api.nvim_create_autocmd('BufWinEnter', {
      buffer = buf,
      callback = function()
        window_options(buf)
      end,
    })
    require('listd.keymaps').apply(buf)
  end
  session.subscribers[list] = {
    view = view,
    on_change = function(params)
      on_change(view, params)
    end,
    on_dispose = function()
      view.status = 'disposed'
      schedule_draw(view)
    end,
    -- A list that did not exist, or was disposed, is (again) created: show it.
    on_create = function()
      if view.status == 'no such list yet' or view.status == 'disposed' then
        M.subscribe(view, false, function()
          to_first_item(view)
        end)
      end
    end,
    on_close = function()
      view.status = 'disconnected'
      schedule_draw(view)
    end,
  }
  window_options(buf)
  if not conn then
    session.notify(err, vim.log.levels.ERROR)
    view.status = 'disconnected'
    M.draw(view)
    return
  end
  M.subscribe(view, true)
  if api.nvim_get_current_buf() == buf and api.nvim_win_get_cursor(0)[1] == 1 then
    api.nvim_win_set_cursor(0, { first_item_line(view), 0 })
  end
end

---Makes `buf` show `list`: scratch options, subscription, first render, keymaps. Idempotent.
---Messages wait until it returns: it runs inside `:edit` (BufReadCmd), see listd.messages.
---@param buf integer
---@param list string
function M.attach(buf, list)
  messages.hold(attach, buf, list)
end

-- A new connection (:Listd demo, reconnect): every open list buffer subscribes again on it.
table.insert(session.on_connect, function()
  for _, view in pairs(M.views) do
    M.subscribe(view)
  end
end)

---The view of the current buffer and the row under the cursor (nil on headers and footers).
---@return table|nil view
---@return table|nil row
function M.current()
  local view = M.views[api.nvim_get_current_buf()]
  if not view or not view.rendered then
    return view, nil
  end
  return view, view.rendered.rows[api.nvim_win_get_cursor(0)[1]]
end

---Moves the cursor of the current window to an item's line, if it is visible.
---@param view table
---@param id string
---@return boolean moved
function M.goto_item(view, id)
  local lnum = view.rendered and view.rendered.line_of['i:' .. id]
  if lnum and api.nvim_get_current_buf() == view.buf then
    api.nvim_win_set_cursor(0, { lnum, 0 })
    return true
  end
  return false
end

return M

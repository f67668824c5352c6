-- :Listd and its subcommands: lists, open, close, demo, connect, disconnect, info, sort, filter.
local buffer = require('listd.buffer')
local config = require('listd.config')
local session = require('listd.session')

local M = {}

local function fail(message)
  session.notify(message, vim.log.levels.ERROR)
end

---Opens a list in a buffer named `listd://LIST`; reuses the buffer when it is already open.
---@param list string
---@param how string|nil 'edit', 'split', 'vsplit' or 'tab' (default: the `open` option)
function M.open(list, how)
  if not list or list == '' then
    return fail('which list? :Listd open {list}')
  end
  how = how or config.options.open
  local view = buffer.find(list)
  if view and vim.api.nvim_buf_is_valid(view.buf) then
    local win = vim.fn.bufwinid(view.buf)
    if win ~= -1 then
      vim.api.nvim_set_current_win(win)
      return
    end
    local commands = { edit = 'buffer', split = 'sbuffer', vsplit = 'vertical sbuffer', tab = 'tab sbuffer' }
    vim.cmd((commands[how] or 'buffer') .. ' ' .. view.buf)
    return
  end
  local commands = { edit = 'edit', split = 'split', vsplit = 'vsplit', tab = 'tabedit' }
  -- The BufReadCmd of listd://* (plugin/listd.lua) attaches the buffer.
  vim.cmd((commands[how] or 'edit') .. ' ' .. vim.fn.fnameescape('listd://' .. list))
end

---The daemon's lists (`list/all`), or nil after reporting why not.
---@return table[]|nil {list, title, rows, …}
function M.lists()
  local result, err = session.request_sync('list/all', {})
  if err then
    fail(tostring(err.message))
    return nil
  end
  return result.lists
end

---`:Listd lists`: picks a list with vim.ui.select and opens it.
function M.pick()
  local lists = M.lists()
  if not lists then
    return
  end
  if #lists == 0 then
    return session.notify('the daemon has no lists')
  end
  vim.ui.select(lists, {
    prompt = 'listd lists:',
    kind = 'listd.list',
    format_item = function(info)
      local title = info.title ~= info.list and (' — ' .. tostring(info.title)) or ''
      return string.format('%s%s (%d rows, v%d)', info.list, title, info.rows or 0, info.version or 0)
    end,
  }, function(info)
    if info then
      M.open(info.list)
    end
  end)
end

---`:Listd demo [list]`: spawns `cmd --demo` over stdio, then opens `list` if given.
---@param list string|nil
function M.demo(list)
  local cmd = vim.deepcopy(config.options.cmd)
  cmd[#cmd + 1] = '--demo'
  local _, err = session.spawn(cmd)
  if err then
    return fail(err)
  end
  if list and list ~= '' then
    M.open(list)
  else
    session.notify('demo started: contacts, settings, files, live, processes, inbox (:Listd lists)')
  end
end

---`:Listd connect [path]`: connects to a daemon's socket (default: the daemon's default path).
---@param path string|nil
function M.connect(path)
  path = (path and path ~= '') and vim.fn.expand(path) or config.socket_path() or config.default_socket()
  local _, err = session.connect(path)
  if err then
    return fail(err)
  end
  session.notify('connected to ' .. path)
end

---`:Listd info`: the connection, the server and the open list buffers.
function M.info()
  local d = session.describe()
  local lines = {}
  if not d.connected then
    lines[#lines + 1] = 'not connected' .. (d.reason and (' (' .. d.reason .. ')') or '')
  else
    lines[#lines + 1] = string.format('connected over %s to %s%s', d.transport, d.target, d.pid and (' (pid ' .. d.pid .. ')') or '')
    local server = d.server or {}
    lines[#lines + 1] = string.format('server %s %s, protocol %s, session %s', tostring(server.name), tostring(server.version), tostring(d.protocol), tostring(d.session))
  end
  for _, view in pairs(buffer.views) do
    local version = view.mirror and (' v' .. view.mirror.version) or ''
    lines[#lines + 1] = string.format('buffer %d: %s%s%s', view.buf, view.list, version, view.status and (' (' .. view.status .. ')') or '')
  end
  session.notify(table.concat(lines, '\n'))
end

---`:Listd close [list]`: closes the list's buffer (default: the current one).
---@param list string|nil
function M.close(list)
  local view = (list and list ~= '') and buffer.find(list) or buffer.current()
  if not view then
    return fail('no list buffer to close')
  end
  require('listd.actions').close_buffer(view)
end

M.subcommands = {
  lists = function()
    M.pick()
  end,
  open = function(arg)
    M.open(arg)
  end,
  close = function(arg)
    M.close(arg)
  end,
  demo = function(arg)
    M.demo(arg)
  end,
  connect = function(arg)
    M.connect(arg)
  end,
  disconnect = function()
    session.disconnect()
  end,
  info = function()
    M.info()
  end,
  sort = function(arg)
    require('listd.views').sort(arg)
  end,
  filter = function(arg)
    require('listd.views').filter(arg)
  end,
}

---Runs `:Listd {subcommand} [argument]`; no subcommand is `lists`.
---@param args string
function M.run(args)
  local name, arg = vim.trim(args):match('^(%S*)%s*(.-)$')
  if name == '' then
    name = 'lists'
  end
  local subcommand = M.subcommands[name]
  if not subcommand then
    return fail('unknown subcommand ' .. name .. ' (' .. table.concat(M.names(), ', ') .. ')')
  end
  subcommand(arg ~= '' and arg or nil)
end

---The subcommand names, sorted.
---@return string[]
function M.names()
  local names = vim.tbl_keys(M.subcommands)
  table.sort(names)
  return names
end

-- List ids for completion: open buffers always, the daemon's lists when connected (never starts one).
local function list_ids()
  local ids, seen = {}, {}
  local function add(id)
    if type(id) == 'string' and not seen[id] then
      seen[id] = true
      ids[#ids + 1] = id
    end
  end
  if session.connected() then
    local result = session.conn:request_sync('list/all', {}, 1000)
    for _, info in ipairs(result and result.lists or {}) do
      add(info.list)
    end
  end
  for _, view in pairs(buffer.views) do
    add(view.list)
  end
  table.sort(ids)
  return ids
end

---Completion of `:Listd`: subcommands, then list ids for open/close/demo.
---@param arglead string
---@param cmdline string
---@return string[]
function M.complete(arglead, cmdline)
  local words = vim.split(cmdline, '%s+', { trimempty = false })
  local candidates
  if #words <= 2 then
    candidates = M.names()
  elseif #words == 3 and (words[2] == 'open' or words[2] == 'close') then
    candidates = list_ids()
  elseif #words == 3 and words[2] == 'demo' then
    candidates = { 'contacts', 'files', 'inbox', 'live', 'processes', 'settings' }
  elseif #words == 3 and words[2] == 'sort' then
    candidates = require('listd.views').column_ids()
  elseif #words == 4 and words[2] == 'sort' then
    candidates = { 'asc', 'desc' }
  elseif #words == 3 and words[2] == 'connect' then
    return vim.fn.getcompletion(arglead, 'file')
  else
    candidates = {}
  end
  return vim.tbl_filter(function(c)
    return vim.startswith(c, arglead)
  end, candidates)
end

return M

-- The plugin's one connection to listd: started on demand, initialized, routing notifications to subscribers.
local config = require('listd.config')
local messages = require('listd.messages')
local rpc = require('listd.rpc')

local M = {
  ---The current connection (see listd.rpc), or nil.
  conn = nil,
  ---Per list id: {on_change(params), on_dispose(params), on_create(params), on_resync(params), on_close(reason)} of the
  ---buffer showing it.
  subscribers = {},
  ---Called with the new connection after each successful start (buffers resubscribe).
  on_connect = {},
}

local LEVELS = { vim.log.levels.ERROR, vim.log.levels.WARN, vim.log.levels.INFO, vim.log.levels.DEBUG }

---Shows a message prefixed with `listd: ` (held while the plugin waits: see listd.messages).
---@param message string
---@param level integer|nil vim.log.levels (default INFO)
function M.notify(message, level)
  messages.notify('listd: ' .. message, level or vim.log.levels.INFO)
end

-- The daemon's last warning or error on stderr, to explain why it went away.
local function last_words(conn)
  local last
  for line in (conn.stderr_tail or ''):gmatch('[^\n]+') do
    if not line:match(': info: ') and not line:match(': debug: ') then
      last = line
    end
  end
  return last and (' (' .. last .. ')') or ''
end

local function handlers()
  local conn
  return {
    on_notification = function(method, params)
      if type(params) ~= 'table' then
        return
      end
      local subscriber = type(params.list) == 'string' and M.subscribers[params.list] or nil
      if method == 'list/didChange' and subscriber then
        subscriber.on_change(params)
      elseif method == 'list/didDispose' and subscriber then
        subscriber.on_dispose(params)
      elseif method == 'list/didCreate' and subscriber then
        subscriber.on_create(params)
      elseif method == 'list/resync' and subscriber and subscriber.on_resync then
        subscriber.on_resync(params)
      elseif method == 'window/logMessage' and type(params.message) == 'string' then
        M.notify(params.message, LEVELS[params.type] or vim.log.levels.INFO)
      end
    end,
    on_close = function(reason)
      if M.conn ~= conn then
        return -- an old connection, replaced on purpose
      end
      M.notify('connection closed: ' .. tostring(reason) .. last_words(conn), vim.log.levels.WARN)
      for _, subscriber in pairs(M.subscribers) do
        subscriber.on_close(reason)
      end
    end,
    bind = function(c)
      conn = c
    end,
  }
end

-- Initializes a fresh connection and makes it current.
local function adopt(conn, h)
  h.bind(conn)
  local _, err = rpc.initialize(conn, config.options.timeout)
  if err then
    conn:terminate()
    return nil, 'initialize failed: ' .. tostring(err.message) .. last_words(conn)
  end
  M.conn = conn
  for _, hook in ipairs(M.on_connect) do
    hook(conn)
  end
  return conn
end

---Whether a live connection exists.
---@return boolean
function M.connected()
  return M.conn ~= nil and not M.conn.closed
end

---Spawns `cmd` over stdio (replacing any current connection).
---@param cmd string[]
---@return table|nil connection
---@return string|nil error
function M.spawn(cmd)
  M.disconnect()
  if vim.fn.executable(cmd[1]) ~= 1 then
    return nil, 'cannot start ' .. tostring(cmd[1]) .. ': not an executable (set `cmd` in require("listd").setup())'
  end
  local h = handlers()
  local conn, err = rpc.spawn(cmd, h)
  if not conn then
    return nil, err
  end
  return adopt(conn, h)
end

---Connects to a daemon's socket (replacing any current connection).
---@param path string
---@return table|nil connection
---@return string|nil error
function M.connect(path)
  M.disconnect()
  local h = handlers()
  local conn, err = rpc.connect(path, h, config.options.timeout)
  if not conn then
    return nil, err
  end
  return adopt(conn, h)
end

---The current connection, started as configured (socket, else `cmd` over stdio) when there is none.
---@return table|nil connection
---@return string|nil error
function M.ensure()
  if M.connected() then
    return M.conn
  end
  local socket = config.socket_path()
  if socket then
    return M.connect(socket)
  end
  return M.spawn(config.options.cmd)
end

---Ends the current connection politely (shutdown, exit); a spawned daemon then exits.
function M.disconnect()
  local conn = M.conn
  M.conn = nil
  if conn and not conn.closed then
    conn:request_sync('shutdown', nil, 1000)
    conn:notify('exit', nil)
    conn:close()
    for _, subscriber in pairs(M.subscribers) do
      subscriber.on_close('disconnected')
    end
  end
end

---Sends a request on the current connection; `callback(err, result)` gets an error when not connected.
---@param method string
---@param params table|nil
---@param callback fun(err: table|nil, result: any)|nil
function M.request(method, params, callback)
  if not M.connected() then
    if callback then
      vim.schedule(function()
        callback({ code = rpc.CLOSED, message = 'not connected to listd (:Listd open LIST reconnects)' })
      end)
    end
    return
  end
  M.conn:request(method, params, callback)
end

---Sends a request on the current connection (started if needed) and waits for the answer.
---@param method string
---@param params table|nil
---@return any result
---@return table|nil error
function M.request_sync(method, params)
  local conn, err = M.ensure()
  if not conn then
    return nil, { code = rpc.CLOSED, message = err }
  end
  return conn:request_sync(method, params, config.options.timeout)
end

---A description of the connection for :Listd info and :checkhealth.
---@return table {connected, transport, target, pid, server, session, protocol, reason}
function M.describe()
  local conn = M.conn
  if not conn then
    return { connected = false }
  end
  local server = conn.server or {}
  return {
    connected = not conn.closed,
    transport = conn.transport,
    target = conn.transport == 'socket' and conn.socket or conn.description,
    pid = conn.pid,
    server = server.serverInfo,
    session = server.session,
    protocol = server.protocolVersion,
    reason = conn.close_reason,
  }
end

return M

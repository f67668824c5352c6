-- A JSON-RPC 2.0 connection with LSP framing over libuv pipes: a spawned daemon's stdio or a Unix socket.
local framing = require('listd.framing')
local messages = require('listd.messages')
local trust = require('listd.trust')

local uv = vim.uv or vim.loop
local M = {}

---The error callbacks get when the connection goes away before an answer.
M.CLOSED = -32099

local Connection = {}
Connection.__index = Connection

-- Params of `{}` must go out as a JSON object, never as `[]`.
local function wire_params(params)
  if params == nil or (type(params) == 'table' and next(params) == nil) then
    return vim.empty_dict()
  end
  return params
end

---@param handlers table|nil {on_notification(method, params), on_request(method, params) → result|nil, error|nil, on_close(reason)}
local function new(handlers, description)
  return setmetatable({
    handlers = handlers or {},
    description = description,
    decoder = framing.decoder(),
    next_id = 1,
    pending = {},
    closed = false,
    stderr_tail = '',
  }, Connection)
end

-- Runs a handler on the main loop, reporting (not raising) its errors; the same error again within
-- two seconds is not repeated, so a failing handler of a busy list cannot flood the messages.
local last_error, last_time = nil, 0
local function call(fn, ...)
  local ok, err = pcall(fn, ...)
  if not ok then
    local now = uv.now()
    if tostring(err) ~= last_error or now - last_time > 2000 then
      messages.notify('listd: ' .. tostring(err), vim.log.levels.ERROR)
    end
    last_error, last_time = tostring(err), now
  end
end

function Connection:_dispatch(body)
  local ok, message = pcall(vim.json.decode, body)
  if not ok or type(message) ~= 'table' then
    return
  end
  if message.method ~= nil then
    if message.id ~= nil and message.id ~= vim.NIL then
      self:_answer_request(message)
    elseif self.handlers.on_notification then
      call(self.handlers.on_notification, message.method, message.params)
    end
  elseif message.id ~= nil then
    local callback = self.pending[message.id]
    self.pending[message.id] = nil
    if callback then
      local err = message.error
      if err == vim.NIL then
        err = nil
      end
      call(callback, err, message.result)
    end
  end
end

-- A request from the daemon: answered by the handler, or with -32601 (never left unanswered).
function Connection:_answer_request(message)
  local result, err
  if self.handlers.on_request then
    local ok, r, e = pcall(self.handlers.on_request, message.method, message.params)
    if ok then
      result, err = r, e
    else
      err = { code = -32603, message = tostring(r) }
    end
  else
    err = { code = -32601, message = 'method not found: ' .. tostring(message.method) }
  end
  local answer = { jsonrpc = '2.0', id = message.id }
  if err then
    answer.error = err
  else
    answer.result = result == nil and vim.NIL or result
  end
  self:_write(vim.json.encode(answer))
end

-- Called from libuv with a chunk; frames are decoded here, handled on the main loop in order.
function Connection:_on_data(chunk)
  local bodies = self.decoder:feed(chunk)
  if #bodies > 0 then
    vim.schedule(function()
      for _, body in ipairs(bodies) do
        self:_dispatch(body)
      end
    end)
  end
end

function Connection:_write(text)
  if self.closed or not self.writer then
    return false
  end
  local ok = pcall(uv.write, self.writer, framing.encode(text))
  return ok
end

---Sends a request; `callback(err, result)` runs on the main loop (err is the JSON-RPC error object).
---@param method string
---@param params table|nil
---@param callback fun(err: table|nil, result: any)|nil
---@return integer|nil id, nil when the connection is closed (then callback gets an error)
function Connection:request(method, params, callback)
  callback = callback or function() end
  if self.closed then
    vim.schedule(function()
      callback({ code = M.CLOSED, message = 'not connected to listd' })
    end)
    return nil
  end
  local id = self.next_id
  self.next_id = id + 1
  self.pending[id] = callback
  self:_write(vim.json.encode({ jsonrpc = '2.0', id = id, method = method, params = wire_params(params) }))
  return id
end

---Sends a request and waits for its answer, processing events meanwhile (never from a fast callback).
---@param method string
---@param params table|nil
---@param timeout integer|nil milliseconds (default 5000)
---@return any result
---@return table|nil error {code, message, data?}
function Connection:request_sync(method, params, timeout)
  local done, result, err = false, nil, nil
  local id = self:request(method, params, function(e, r)
    done, err, result = true, e, r
  end)
  local finished = messages.wait(timeout or 5000, function()
    return done
  end, 5)
  if not finished then
    if id then
      self.pending[id] = nil
      self:notify('$/cancelRequest', { id = id })
    end
    return nil, { code = -32800, message = method .. ' timed out after ' .. (timeout or 5000) .. ' ms' }
  end
  return result, err
end

---Sends a notification.
---@param method string
---@param params table|nil
---@return boolean sent
function Connection:notify(method, params)
  return self:_write(vim.json.encode({ jsonrpc = '2.0', method = method, params = wire_params(params) }))
end

-- Fails every pending request and reports the close once.
function Connection:_closed(reason)
  if self.closed then
    return
  end
  self.closed = true
  self.close_reason = reason
  vim.schedule(function()
    local pending = self.pending
    self.pending = {}
    for _, callback in pairs(pending) do
      call(callback, { code = M.CLOSED, message = 'connection to listd closed' })
    end
    if self.handlers.on_close then
      call(self.handlers.on_close, reason)
    end
  end)
end

local function close_handle(handle)
  if handle and not handle:is_closing() then
    handle:close()
  end
end

---Closes the connection (a spawned daemon sees stdin close and exits).
function Connection:close()
  self:_closed('closed by the client')
  if self.reader and not self.reader:is_closing() then
    pcall(uv.read_stop, self.reader)
  end
  close_handle(self.writer)
  close_handle(self.reader)
  close_handle(self.stderr)
end

---Stops a spawned daemon (SIGTERM); a socket connection is just closed.
function Connection:terminate()
  self:close()
  if self.process and not self.process:is_closing() then
    pcall(uv.process_kill, self.process, 'sigterm')
  end
end

---Spawns `cmd` (a list: program and arguments) and talks to it over its stdin and stdout.
---@param cmd string[]
---@param handlers table|nil see `new`
---@return table|nil connection
---@return string|nil error
function M.spawn(cmd, handlers)
  local conn = new(handlers, table.concat(cmd, ' '))
  local stdin, stdout, stderr = uv.new_pipe(false), uv.new_pipe(false), uv.new_pipe(false)
  local args = {}
  for i = 2, #cmd do
    args[#args + 1] = cmd[i]
  end
  local process, pid = uv.spawn(cmd[1], { args = args, stdio = { stdin, stdout, stderr } }, function(code, signal)
    conn.exit_code, conn.exit_signal = code, signal
    conn:_closed(signal ~= 0 and ('listd was killed by signal ' .. signal) or ('listd exited with code ' .. code))
    close_handle(conn.process)
  end)
  if not process then
    close_handle(stdin)
    close_handle(stdout)
    close_handle(stderr)
    return nil, 'cannot start ' .. tostring(cmd[1]) .. ': ' .. tostring(pid)
  end
  conn.process, conn.pid = process, pid
  conn.transport = 'stdio'
  conn.writer, conn.reader, conn.stderr = stdin, stdout, stderr
  uv.read_start(stdout, function(err, chunk)
    if chunk then
      conn:_on_data(chunk)
    else
      -- The exit status explains more than the end of output: give it a moment to arrive.
      local timer = uv.new_timer()
      timer:start(500, 0, function()
        timer:close()
        conn:_closed(err and ('read error: ' .. err) or 'listd closed its output')
      end)
    end
  end)
  -- The daemon logs to stderr: keep the end of it for messages and :checkhealth.
  uv.read_start(stderr, function(_, chunk)
    if chunk then
      conn.stderr_tail = (conn.stderr_tail .. chunk):sub(-2000)
    end
  end)
  return conn
end

---Connects to a daemon's Unix socket, waiting up to `timeout` ms for the connection. Refuses a socket
---that is not this user's or whose directory others can enter (see listd.trust).
---@param path string
---@param handlers table|nil see `new`
---@param timeout integer|nil milliseconds (default 5000)
---@return table|nil connection
---@return string|nil error
function M.connect(path, handlers, timeout)
  local trusted, why = trust.check(path)
  if not trusted then
    return nil, why
  end
  local conn = new(handlers, path)
  local pipe = uv.new_pipe(false)
  local done, failure = false, nil
  pipe:connect(path, function(err)
    done, failure = true, err
  end)
  if not messages.wait(timeout or 5000, function()
    return done
  end, 5) then
    close_handle(pipe)
    return nil, 'timed out connecting to ' .. path
  end
  if failure then
    close_handle(pipe)
    return nil, 'cannot connect to ' .. path .. ': ' .. tostring(failure)
  end
  conn.transport = 'socket'
  conn.socket = path
  conn.writer, conn.reader = pipe, pipe
  pipe:read_start(function(err, chunk)
    if chunk then
      conn:_on_data(chunk)
    else
      conn:_closed(err and ('read error: ' .. err) or 'the daemon closed the socket')
      -- Close our side as well: a stopping daemon drains the socket until its peer closes (for up to 2 s).
      pcall(uv.read_stop, pipe)
      local ok, request = false, nil
      if not pipe:is_closing() then
        ok, request = pcall(uv.shutdown, pipe, function()
          close_handle(pipe)
        end)
      end
      if not (ok and request) then
        close_handle(pipe) -- already closing, or shutdown refused: close at once
      end
    end
  end)
  return conn
end

---Runs the lifecycle's opening: `initialize` then `initialized`.
---@param conn table
---@param timeout integer|nil
---@return table|nil the initialize result {serverInfo, protocolVersion, session, capabilities}
---@return table|nil error
function M.initialize(conn, timeout)
  local result, err = conn:request_sync('initialize', {
    clientInfo = { name = 'listd.nvim', version = '0.1.0' },
    capabilities = vim.empty_dict(),
  }, timeout)
  if err then
    return nil, err
  end
  conn:notify('initialized', {})
  conn.server = result
  return result
end

return M

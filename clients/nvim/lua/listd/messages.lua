-- Messages to the user: shown at once, or held while the plugin waits or attaches a buffer and shown right after.
-- An error message (vim.notify → nvim_err_writeln) given while a command runs through vim.cmd — `:Listd open`
-- runs `:edit`, whose BufReadCmd subscribes and waits for the answer — becomes an exception of that command:
-- the message is lost and the code after it fails. Held messages are shown from the main loop instead.
local M = {
  ---How many held sections are running; messages wait until none is.
  depth = 0,
  ---Held messages: {text, level}.
  pending = {},
}

local function flush()
  if M.depth > 0 then
    return -- shown when the held section that runs now ends
  end
  local pending = M.pending
  M.pending = {}
  for _, message in ipairs(pending) do
    vim.notify(message[1], message[2])
  end
end

---Shows a message with vim.notify, now or, inside a held section, right after it.
---@param text string
---@param level integer|nil vim.log.levels
function M.notify(text, level)
  if M.depth > 0 then
    M.pending[#M.pending + 1] = { text, level }
  else
    vim.notify(text, level)
  end
end

---Runs `fn(...)` holding messages; returns what it returns and raises what it raises.
---@param fn function
---@return any
function M.hold(fn, ...)
  M.depth = M.depth + 1
  local results = vim.F.pack_len(pcall(fn, ...))
  M.depth = M.depth - 1
  if M.depth == 0 and #M.pending > 0 then
    vim.schedule(flush)
  end
  if not results[1] then
    error(results[2], 0)
  end
  return unpack(results, 2, results.n)
end

---vim.wait, holding the messages that callbacks give meanwhile.
---@param timeout integer milliseconds
---@param condition function
---@param interval integer|nil milliseconds
---@return boolean met
function M.wait(timeout, condition, interval)
  return M.hold(vim.wait, timeout, condition, interval)
end

return M

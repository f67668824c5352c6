-- LSP base-protocol framing: Content-Length frames out, a streaming decoder in. Pure Lua, no I/O.
local M = {}

---Frames one JSON body: `Content-Length: N\r\n\r\n` + body (N counts bytes).
---@param body string
---@return string
function M.encode(body)
  return 'Content-Length: ' .. #body .. '\r\n\r\n' .. body
end

local Decoder = {}
Decoder.__index = Decoder

---A decoder that accepts chunks as they arrive and returns the complete bodies.
---@return table decoder with :feed(chunk) → bodies, errors
function M.decoder()
  return setmetatable({ buffer = '' }, Decoder)
end

---Appends a chunk and returns the bodies it completes, in order, plus any header errors.
---@param chunk string
---@return string[] bodies
---@return string[] errors malformed headers (the decoder skips them and goes on)
function Decoder:feed(chunk)
  self.buffer = self.buffer .. chunk
  local bodies, errors = {}, {}
  while true do
    if self.length == nil then
      -- Headers end at a blank line; LF-only line ends are accepted, as the daemon accepts them.
      local stop, after = self.buffer:find('\r?\n\r?\n')
      if not stop then
        break
      end
      local headers = self.buffer:sub(1, stop - 1)
      self.buffer = self.buffer:sub(after + 1)
      local length
      for line in (headers .. '\n'):gmatch('([^\n]*)\n') do
        local name, value = line:gsub('\r$', ''):match('^%s*([^:]+):%s*(.-)%s*$')
        if name and name:lower() == 'content-length' then
          length = tonumber(value)
        end
      end
      if length and length >= 0 and length == math.floor(length) then
        self.length = length
      else
        errors[#errors + 1] = 'malformed frame header: ' .. headers
      end
    end
    -- After a malformed header the loop looks for the next one (resynchronisation).
    if self.length ~= nil then
      if #self.buffer < self.length then
        break
      end
      bodies[#bodies + 1] = self.buffer:sub(1, self.length)
      self.buffer = self.buffer:sub(self.length + 1)
      self.length = nil
    end
  end
  return bodies, errors
end

return M

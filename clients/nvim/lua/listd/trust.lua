-- Whether a daemon's socket may be trusted: it and its directory belong to this user, and no one else can enter the directory.
-- Another local user who creates /tmp/listd-<your uid>/listd.sock first would otherwise receive your requests.
-- Lua cannot ask the kernel who listens (luv has no call for a socket's peer credentials), so ownership and modes
-- are what is checked, on Linux and macOS alike.
local uv = vim.uv or vim.loop
local bit = require('bit')

local M = {}

local function octal(mode)
  return string.format('%o', bit.band(mode, 511))
end

---Checks `path` before connecting.
---@param path string the socket
---@return boolean|nil ok
---@return string|nil why not: names the path and what is wrong
function M.check(path)
  local uid = uv.getuid()
  local function refuse(why)
    return nil, 'refusing to connect to ' .. path .. ': ' .. why
  end
  local directory = vim.fn.fnamemodify(path, ':h')
  local link = uv.fs_lstat(directory)
  if not link then
    return nil, 'cannot connect to ' .. path .. ': its directory ' .. directory .. ' does not exist'
  end
  if link.type == 'link' and link.uid ~= uid then
    return refuse('its directory ' .. directory .. ' is a symbolic link that belongs to uid ' .. link.uid .. ', not to you (uid ' .. uid .. ')')
  end
  local dir = uv.fs_stat(directory)
  if not dir or dir.type ~= 'directory' then
    return refuse(directory .. ' is not a directory')
  end
  if dir.uid ~= uid then
    return refuse('its directory ' .. directory .. ' belongs to uid ' .. dir.uid .. ', not to you (uid ' .. uid .. ')')
  end
  if bit.band(dir.mode, 63) ~= 0 then -- 0o077: any access for group or others
    return refuse('its directory ' .. directory .. ' can be entered by other users (mode ' .. octal(dir.mode)
      .. '); only a directory no one else can enter (mode 700) is trusted')
  end
  local socket = uv.fs_lstat(path)
  if not socket then
    return nil, 'cannot connect to ' .. path .. ': it does not exist (no daemon listens there; start one with: listd --listen ' .. path .. ' --stay)'
  end
  if socket.type ~= 'socket' then
    return refuse(path .. ' is not a socket (' .. socket.type .. ')')
  end
  if socket.uid ~= uid then
    return refuse(path .. ' belongs to uid ' .. socket.uid .. ', not to you (uid ' .. uid .. ')')
  end
  return true
end

return M

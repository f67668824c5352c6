-- The one place the Neovim plugin differs between Linux and macOS: the default socket directory and a process's RSS.
local uv = vim.uv or vim.loop

local M = {}

---Whether this is macOS (Darwin).
M.darwin = uv.os_uname().sysname == 'Darwin'

---The directory the default socket's listd/listd.sock goes in, as the daemon chooses it, trailing slashes
---removed ('' for /); nil for the fallback, /tmp/listd-$UID. Linux: $XDG_RUNTIME_DIR. macOS: the per-user
---temporary directory, $TMPDIR, else `getconf DARWIN_USER_TEMP_DIR` (confstr(_CS_DARWIN_USER_TEMP_DIR); a GUI
---Neovim may lack $TMPDIR); XDG_RUNTIME_DIR is not read there. A value that is not an absolute path counts as
---unset (the XDG Base Directory spec says a relative path must be ignored).
---@return string|nil
function M.default_socket_base()
  if M.darwin then
    local temporary = M.absolute(os.getenv('TMPDIR'))
    if not temporary then
      local confstr = vim.trim(vim.fn.system({ 'getconf', 'DARWIN_USER_TEMP_DIR' }))
      if vim.v.shell_error == 0 then
        temporary = M.absolute(confstr)
      end
    end
    return temporary
  end
  return M.absolute(os.getenv('XDG_RUNTIME_DIR'))
end

---`path` without its trailing slashes, or nil unless it is absolute.
---@param path string|nil
---@return string|nil
function M.absolute(path)
  if not path or path:sub(1, 1) ~= '/' then
    return nil
  end
  return (path:gsub('/+$', ''))
end

---The resident set size of process `pid` (default: this Neovim) in KiB, or nil.
---Linux: VmRSS of /proc/PID/status. macOS: `ps -o rss=` (KiB there too).
---@param pid integer|nil
---@return integer|nil
function M.resident_kib(pid)
  pid = pid or uv.os_getpid()
  if M.darwin then
    return tonumber(vim.trim(vim.fn.system({ 'ps', '-o', 'rss=', '-p', tostring(pid) })))
  end
  local f = io.open('/proc/' .. pid .. '/status')
  if not f then
    return nil
  end
  for line in f:lines() do
    local kb = line:match('^VmRSS:%s+(%d+)')
    if kb then
      f:close()
      return tonumber(kb)
    end
  end
  f:close()
end

return M

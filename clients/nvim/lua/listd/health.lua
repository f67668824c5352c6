-- :checkhealth listd — the binary, its version and the connection (vim.health on 0.8+, require('health') on 0.7).
local config = require('listd.config')
local session = require('listd.session')

local M = {}

-- The reporting functions of this Neovim: vim.health.{start,ok,warn,error,info} or health.report_*.
local function reporter()
  local h = vim.health
  if h and h.start then
    return h -- 0.9+
  end
  if not (h and h.report_start) then
    h = require('health') -- 0.7
  end
  return { start = h.report_start, ok = h.report_ok, warn = h.report_warn, error = h.report_error, info = h.report_info }
end

---Runs the checks.
function M.check()
  local report = reporter()
  report.start('listd: daemon binary')
  local cmd = config.options.cmd
  local program = cmd[1]
  if vim.fn.executable(program) == 1 then
    local path = vim.fn.exepath(program)
    report.ok('binary: ' .. (path ~= '' and path or program))
    local output = vim.fn.system({ program, '--version' })
    if vim.v.shell_error == 0 then
      report.ok('version: ' .. vim.trim(output))
    else
      report.warn('`' .. program .. ' --version` failed: ' .. vim.trim(output))
    end
  elseif config.socket_path() then
    report.info('binary `' .. tostring(program) .. '` not found; not needed: `socket` is set')
  else
    report.error('binary `' .. tostring(program) .. '` not found', {
      'build it: swift build --product listd',
      "or set its path: require('listd').setup({ cmd = { '/path/to/listd' } })",
    })
  end

  report.start('listd: connection')
  local socket = config.socket_path()
  if socket then
    local stat = (vim.uv or vim.loop).fs_lstat(socket)
    local trusted, why = require('listd.trust').check(socket)
    if trusted then
      report.ok('socket: ' .. socket .. ' (yours, in a directory only you can enter)')
    elseif stat then
      report.error(why, { 'see :help listd-socket' })
    else
      report.warn('socket ' .. socket .. ' does not exist', { 'start a daemon: listd --listen ' .. socket .. ' --stay' })
    end
  else
    report.info('mode: spawns `' .. table.concat(cmd, ' ') .. '` over stdio')
  end
  local d = session.describe()
  if d.connected then
    local server = d.server or {}
    report.ok(string.format('connected over %s to %s: %s %s, protocol %s, session %s', d.transport, d.target,
      tostring(server.name), tostring(server.version), tostring(d.protocol), tostring(d.session)))
  elseif d.reason then
    report.warn('connection closed: ' .. d.reason)
  else
    report.info('not connected (connects on :Listd open / :Listd lists)')
  end
end

return M

-- listd for Neovim: live lists of the listd daemon in buffers. Entry point: require('listd').setup().
local config = require('listd.config')

local M = {}

---Sets the options (see :help listd-setup); calling it is optional.
---@param opts table|nil {cmd = {'listd'}, socket = nil, timeout = 5000, open = 'edit', keymaps = {…}}
function M.setup(opts)
  config.set(opts)
end

---Opens a list in a buffer (as :Listd open).
---@param list string
function M.open(list)
  require('listd.commands').open(list)
end

---Picks a list and opens it (as :Listd lists).
function M.lists()
  require('listd.commands').pick()
end

---Spawns the daemon with the demo lists (as :Listd demo).
---@param list string|nil a list to open
function M.demo(list)
  require('listd.commands').demo(list)
end

---The connection, for scripts: request/notify on the daemon (see listd.rpc).
---@return table|nil connection
---@return string|nil error
function M.connection()
  return require('listd.session').ensure()
end

return M

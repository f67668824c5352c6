-- The buffer-local maps of list buffers, from the `keymaps` option (a key set to false is left unmapped).
local config = require('listd.config')

local M = {}

-- Option name → {function, description}; the functions live in listd.actions.
local function bindings(actions)
  return {
    select = { actions.select, 'select / deselect the item' },
    toggle_outline = { actions.toggle_outline, 'expand / collapse the item' },
    expand = { function() actions.expand(false) end, 'expand the item' },
    collapse = { function() actions.collapse(false) end, 'collapse the item or its parent' },
    expand_recursive = { function() actions.expand(true) end, 'expand the item and its subtree' },
    collapse_recursive = { function() actions.collapse(true) end, 'collapse the item and its subtree' },
    expand_all = { function() actions.all(true) end, 'expand everything' },
    collapse_all = { function() actions.all(false) end, 'collapse everything' },
    actions = { actions.actions, "choose one of the item's actions" },
    toggle_switch = { actions.toggle_switch, "flip the item's toggle" },
    details = { actions.details, "show the item's details" },
    refresh = { actions.refresh, 'ask the owner to refresh the list' },
    close = { actions.close, 'close the list' },
  }
end

---Maps the configured keys in `buf`.
---@param buf integer
function M.apply(buf)
  local actions = require('listd.actions')
  for name, binding in pairs(bindings(actions)) do
    local lhs = config.options.keymaps[name]
    if lhs then
      vim.keymap.set('n', lhs, binding[1], { buffer = buf, nowait = true, silent = true, desc = 'listd: ' .. binding[2] })
    end
  end
end

return M

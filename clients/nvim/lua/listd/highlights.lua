-- The highlight groups of list buffers, linked by default so colorschemes can override them.
local M = {}

M.links = {
  ListdTitle = 'Title',
  ListdVersion = 'Comment',
  ListdInfo = 'Comment',
  ListdStale = 'WarningMsg',
  ListdHeader = 'Statement',
  ListdSectionId = 'Comment',
  ListdFooter = 'Comment',
  ListdText = 'Normal',
  ListdSelected = 'Visual',
  ListdSelectedMark = 'Special',
  ListdDisabled = 'NonText',
  ListdDisclosure = 'Special',
  ListdSecondary = 'Comment',
  ListdAccessory = 'Special',
  ListdCheckmark = 'String',
  ListdLabel = 'Comment',
  ListdBadge = 'Number',
  ListdProgress = 'String',
  ListdToggleOn = 'String',
  ListdToggleOff = 'Comment',
  ListdDestructive = 'ErrorMsg',
}

---Defines every group as `hi default link` (a colorscheme's own definition wins).
function M.define()
  for group, target in pairs(M.links) do
    vim.cmd(string.format('highlight default link %s %s', group, target))
  end
end

return M

-- Where a window's top line goes after a re-render: as Vim moves it for lines inserted or deleted above it.
local M = {}

---The old line numbers of the lines that kept their order in the new rendering: a longest increasing
---subsequence of their new line numbers (keys are unique). Lines outside it were deleted or moved.
---@param old_keys table {[lnum] = key} of the old rendering
---@param count integer lines of the old rendering
---@param new_line_of table {[key] = lnum} of the new rendering
---@return table set {[old lnum] = true}
function M.unmoved(old_keys, count, new_line_of)
  -- Patience sorting: tails[k] = the old line ending the best run of length k; prev links the run.
  local tails, prev = {}, {}
  for l = 1, count do
    local at = new_line_of[old_keys[l]]
    if at then
      local lo, hi = 1, #tails
      while lo <= hi do
        local mid = math.floor((lo + hi) / 2)
        if new_line_of[old_keys[tails[mid]]] < at then
          lo = mid + 1
        else
          hi = mid - 1
        end
      end
      tails[lo] = l
      prev[l] = lo > 1 and tails[lo - 1] or nil
    end
  end
  local set, l = {}, tails[#tails]
  while l do
    set[l] = true
    l = prev[l]
  end
  return set
end

---The new top line of a window after `old` was re-rendered as `new`.
---Vim's rule for a change in a window other than the current one: the top line stays on its text,
---so lines inserted or deleted above it scroll the window by as many lines, and when the top line
---itself is deleted the line above the deleted lines takes the top. A line that moved counts as
---deleted where it was. Then the window scrolls as little as shows the cursor line (with
---'scrolloff'), and a rendering that fits the window is shown whole.
---@param old table the old rendering {lines, keys}
---@param new table the new rendering {lines, line_of}
---@param topline integer the window's old top line
---@param lnum integer the cursor's new line
---@param height integer the window's height
---@param scrolloff integer the window's 'scrolloff'
---@return integer topline
function M.topline(old, new, topline, lnum, height, scrolloff)
  local count = #new.lines
  if count <= height then
    return 1
  end
  local unmoved = M.unmoved(old.keys, #old.lines, new.line_of)
  -- The title (line 1) never moves, so a line that stayed is found at or above the top.
  local top = 1
  for l = math.min(topline, #old.lines), 1, -1 do
    if unmoved[l] then
      top = new.line_of[old.keys[l]]
      break
    end
  end
  return M.settle(top, lnum, height, scrolloff, count)
end

---The top line once the window scrolls as little as shows the cursor line `lnum` (with 'scrolloff'), for a
---top line `top` kept on its text; a buffer of `count` lines that fits the window is shown whole.
---@return integer topline
function M.settle(top, lnum, height, scrolloff, count)
  if count <= height then
    return 1
  end
  local so = math.max(0, math.min(scrolloff, math.floor((height - 1) / 2)))
  if lnum - so < top then
    top = lnum - so
  elseif lnum + so > top + height - 1 then
    top = lnum + so - height + 1
  end
  return math.max(1, math.min(top, count))
end

return M

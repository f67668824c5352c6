-- Seeded random edits for the property specs: valid often enough; the daemon rejects the rest (and changes nothing).
local R = {}
local next_id = 0

local function fresh_id(prefix)
  next_id = next_id + 1
  return prefix .. next_id
end

local function pick(list)
  return list[math.random(#list)]
end

local ACCESSORIES = {
  { type = 'disclosureIndicator' }, { type = 'checkmark' }, { type = 'badge', text = '7' },
  { type = 'toggle', isOn = true }, { type = 'progress', value = 0.25 }, { type = 'label', text = 'L' },
}

function R.new_item(depth)
  local item = { id = fresh_id('i'), text = 'Item ' .. next_id }
  if math.random() < 0.3 then
    item.secondaryText = 'sub ' .. math.random(100)
  end
  if math.random() < 0.3 then
    item.accessories = { pick(ACCESSORIES) }
  end
  if depth < 2 and math.random() < 0.3 then
    item.expanded = math.random() < 0.5
    item.children = {}
    for _ = 1, math.random(3) do
      item.children[#item.children + 1] = R.new_item(depth + 1)
    end
  end
  return item
end

local function new_items()
  local items = {}
  for _ = 1, math.random(3) do
    items[#items + 1] = R.new_item(0)
  end
  return items
end

function R.new_section()
  local section = { id = fresh_id('s'), items = new_items() }
  if math.random() < 0.7 then
    section.header = 'Section ' .. next_id
  end
  if math.random() < 0.3 then
    section.footer = 'footer ' .. next_id
  end
  return section
end

---The list's section and item ids (hidden items included); `call(method, params)` asks the daemon.
function R.ids(call, list)
  local sections, items = {}, {}
  for _, s in ipairs(call('query/sections', { list = list }).sections) do
    sections[#sections + 1] = s.id
  end
  local function walk(nodes)
    for _, node in ipairs(nodes) do
      items[#items + 1] = node.id
      walk(node.children or {})
    end
  end
  walk(call('query/outline', { list = list }).nodes)
  return sections, items
end

-- One random edit that is valid often enough; the daemon rejects the rest (and changes nothing).
function R.random_edit(sections, items)
  local has_items, has_sections = #items > 0, #sections > 0
  local r = math.random(100)
  if not has_sections or r <= 6 then
    return { op = 'appendSections', sections = { R.new_section() } }
  elseif r <= 9 then
    return { op = 'insertSections', sections = { R.new_section() }, [math.random() < 0.5 and 'before' or 'after'] = pick(sections) }
  elseif r <= 12 then
    return { op = 'deleteSections', sections = { pick(sections) } }
  elseif r <= 16 then
    return { op = 'moveSection', section = pick(sections), [math.random() < 0.5 and 'before' or 'after'] = pick(sections) }
  elseif r <= 20 then
    return { op = 'updateSection', section = pick(sections), header = math.random() < 0.8 and ('H' .. math.random(99)) or vim.NIL, footer = math.random() < 0.5 and ('F' .. math.random(99)) or vim.NIL }
  elseif r <= 22 then
    return { op = 'reloadSections', sections = { pick(sections) } }
  elseif not has_items or r <= 32 then
    return { op = 'appendItems', section = pick(sections), items = new_items() }
  elseif r <= 40 then
    return { op = 'insertItems', items = new_items(), [math.random() < 0.5 and 'before' or 'after'] = pick(items) }
  elseif r <= 46 then
    return { op = 'appendChildren', parent = pick(items), items = new_items() }
  elseif r <= 54 then
    return { op = 'deleteItems', items = { pick(items), pick(items) } }
  elseif r <= 64 then
    local where = math.random(4)
    local edit = { op = 'moveItem', item = pick(items) }
    if where == 1 then
      edit.before = pick(items)
    elseif where == 2 then
      edit.after = pick(items)
    elseif where == 3 then
      edit.section = pick(sections)
    else
      edit.parent = pick(items)
    end
    return edit
  elseif r <= 70 then
    local item = R.new_item(2)
    item.id = pick(items)
    return { op = 'updateItems', items = { item } }
  elseif r <= 73 then
    return { op = math.random() < 0.5 and 'reloadItems' or 'reconfigureItems', items = { pick(items) } }
  elseif r <= 82 then
    return { op = math.random() < 0.5 and 'expand' or 'collapse', item = pick(items), recursive = math.random() < 0.3 }
  elseif r <= 94 then
    return { op = math.random() < 0.6 and 'select' or 'deselect', items = { pick(items), pick(items) } }
  elseif r <= 96 then
    return { op = math.random() < 0.5 and 'selectAll' or 'deselectAll' }
  elseif r <= 97 then
    return { op = 'deleteAllItems' }
  end
  return { op = 'expand', item = pick(items) }
end

return R

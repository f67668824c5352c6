-- Mirror property: seeded random edits by another client (sections' kinds and header modes too); the buffer's mirror and
-- lines, and a listd.mirror fed the answers' changesets, equal a fresh snapshot.
-- LISTD_SEED=N replays a run; LISTD_STEPS=N changes its length (default 300).
local T = dofile(os.getenv('LISTD_NVIM_ROOT') .. '/test/helpers.lua')
T.setup()
local mirror = require('listd.mirror')
local render = require('listd.render')
local buffer = require('listd.buffer')
-- Every row near the window: the whole list is held, so it can be compared with a full snapshot
-- (window_spec checks a list larger than the window against query/window).
buffer.min_margin = 100000

local seed = tonumber(os.getenv('LISTD_SEED') or '') or 24311
local steps = tonumber(os.getenv('LISTD_STEPS') or '') or 300
T.out('seed ' .. seed .. ' (LISTD_SEED=' .. seed .. ' replays it), ' .. steps .. ' steps')
-- Nearby seeds start LuaJIT's generator in nearby states: spread them first.
math.randomseed((seed * 1103515245 + 12345) % 2147483648)

local other = T.second_client()
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

local KINDS = { 'card', 'wide' }
local HEADER_MODES = { 'supplementary', 'none', 'firstItemInSection' }

local function new_item(depth)
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
      item.children[#item.children + 1] = new_item(depth + 1)
    end
  end
  return item
end

local function new_items()
  local items = {}
  for _ = 1, math.random(3) do
    items[#items + 1] = new_item(0)
  end
  return items
end

local function new_section()
  local section = { id = fresh_id('s'), items = new_items() }
  if math.random() < 0.7 then
    section.header = 'Section ' .. next_id
  end
  if math.random() < 0.3 then
    section.footer = 'footer ' .. next_id
  end
  if math.random() < 0.3 then
    section.kind = pick(KINDS)
  end
  if math.random() < 0.3 then
    section.headerMode = pick(HEADER_MODES)
  end
  return section
end

-- The list's current section and item ids (hidden items included), from the daemon.
local function ids()
  local sections, items = {}, {}
  for _, s in ipairs(T.call(other, 'query/sections', { list = 'prop' }).sections) do
    sections[#sections + 1] = s.id
  end
  local function walk(nodes)
    for _, node in ipairs(nodes) do
      items[#items + 1] = node.id
      walk(node.children or {})
    end
  end
  walk(T.call(other, 'query/outline', { list = 'prop' }).nodes)
  return sections, items
end

-- One random edit that is valid often enough; the daemon rejects the rest (and changes nothing).
local function random_edit(sections, items)
  local has_items, has_sections = #items > 0, #sections > 0
  local r = math.random(100)
  if not has_sections or r <= 6 then
    return { op = 'appendSections', sections = { new_section() } }
  elseif r <= 9 then
    return { op = 'insertSections', sections = { new_section() }, [math.random() < 0.5 and 'before' or 'after'] = pick(sections) }
  elseif r <= 12 then
    return { op = 'deleteSections', sections = { pick(sections) } }
  elseif r <= 16 then
    return { op = 'moveSection', section = pick(sections), [math.random() < 0.5 and 'before' or 'after'] = pick(sections) }
  elseif r <= 20 then
    local edit = { op = 'updateSection', section = pick(sections), header = math.random() < 0.8 and ('H' .. math.random(99)) or vim.NIL, footer = math.random() < 0.5 and ('F' .. math.random(99)) or vim.NIL }
    if math.random() < 0.5 then
      edit.kind = math.random() < 0.7 and pick(KINDS) or vim.NIL
    end
    if math.random() < 0.5 then
      edit.headerMode = math.random() < 0.8 and pick(HEADER_MODES) or vim.NIL
    end
    return edit
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
    local item = new_item(2)
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

-- A listd.mirror fed the answers' changesets: it holds every row, through the decoder the buffer uses.
local full

-- The buffer must be at `version` with the mirror and the lines of a snapshot fetched afresh; so must `full`.
local function check(version, step)
  T.wait_version(version)
  T.wait(function()
    return buffer.settled(T.view())
  end, 'every row drawn')
  local entry = T.call(other, 'list/subscribe', { list = 'prop', snapshot = 'full' }).lists[1]
  T.call(other, 'list/unsubscribe', { list = 'prop' })
  local view = T.view()
  T.eq(entry.version, view.mirror.version, 'version at step ' .. step .. ' (seed ' .. seed .. ')')
  T.eq(entry.snapshot, view.mirror:snapshot(), 'mirror at step ' .. step .. ' (seed ' .. seed .. ')')
  T.eq(entry.version, full.version, 'listd.mirror version at step ' .. step .. ' (seed ' .. seed .. ')')
  T.eq(entry.snapshot, full:snapshot(), 'listd.mirror at step ' .. step .. ' (seed ' .. seed .. ')')
  local expected = render.render(mirror.new('prop', entry.version, entry.snapshot), view.info).lines
  T.eq(expected, T.lines(), 'buffer lines at step ' .. step .. ' (seed ' .. seed .. ')')
end

T.case('random edits through the daemon: mirror and buffer equal a fresh full snapshot', function()
  T.call(other, 'list/create', { list = 'prop', selectionMode = 'multiple', content = { sections = { new_section(), new_section() } } })
  vim.cmd('Listd open prop')
  local entry = T.call(other, 'list/subscribe', { list = 'prop', snapshot = 'full' }).lists[1]
  T.call(other, 'list/unsubscribe', { list = 'prop' })
  full = mirror.from_subscribe(entry)
  local from = #T.messages + 1
  local version, applied, rejected = 0, 0, 0
  for step = 1, steps do
    local sections, items = ids()
    local edits = {}
    for _ = 1, math.random(3) do
      edits[#edits + 1] = random_edit(sections, items)
    end
    local result, err
    if math.random() < 0.03 then
      result, err = other:request_sync('list/replace', { list = 'prop', content = { sections = { new_section(), new_section() } } }, 8000)
    elseif math.random() < 0.1 and #items > 0 then
      result, err = other:request_sync(math.random() < 0.5 and 'outline/expand' or 'outline/collapse', { list = 'prop' }, 8000)
    else
      result, err = other:request_sync('list/edit', { list = 'prop', edits = edits }, 8000)
    end
    if err then
      T.ok(err.code ~= -32603, 'internal error at step ' .. step .. ': ' .. vim.inspect(err))
      rejected = rejected + 1
    else
      version = result.version
      applied = applied + 1
      if version > full.version then
        local ok, why = mirror.try(function()
          full:apply_did_change({ list = 'prop', previousVersion = full.version, version = version, changeset = result.changeset })
        end)
        T.ok(ok, 'listd.mirror at step ' .. step .. ' (seed ' .. seed .. '): ' .. tostring(why))
      end
    end
    -- Move the cursor now and then, as a user would while the list changes.
    if step % 7 == 0 then
      vim.api.nvim_win_set_cursor(0, { math.random(#T.lines()), 0 })
    end
    if step % 50 == 0 then
      check(version, step)
    end
  end
  check(version, steps)
  T.out(string.format('%d requests applied, %d rejected, list at v%d', applied, rejected, version))
  T.ok(applied > steps / 2, 'most requests applied')
  T.eq({}, T.notified(from, vim.log.levels.WARN), 'no resynchronisation or warning')
end)

T.run()

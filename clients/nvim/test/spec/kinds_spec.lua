-- Sections' kind and headerMode: a mirror and the buffer hold them through reloads and inserted sections.
local T = dofile(os.getenv('LISTD_NVIM_ROOT') .. '/test/helpers.lua')
T.setup()
local mirror = require('listd.mirror')
local render = require('listd.render')
local buffer = require('listd.buffer')

local other = T.second_client()

-- Edits that set, change and clear kinds and header modes: section reloads and inserted sections.
local STEPS = {
  { { op = 'updateSection', section = 'b', kind = 'card', headerMode = 'firstItemInSection' } },
  { { op = 'insertSections', before = 'b', sections = { { id = 'c', header = 'C', kind = 'wide', headerMode = 'none', items = { { id = 'c1', text = 'c1' } } } } } },
  { { op = 'appendSections', sections = { { id = 'd', kind = 'plain', items = { { id = 'd1', text = 'd1' }, { id = 'd2', text = 'd2' } } } } } },
  { { op = 'updateSection', section = 'a', kind = vim.NIL, headerMode = vim.NIL } },
  { { op = 'updateSection', section = 'c', headerMode = 'supplementary' }, { op = 'moveSection', section = 'c', after = 'd' } },
  { { op = 'reloadSections', sections = { 'b' } }, { op = 'updateSection', section = 'd', header = 'D', headerMode = 'none' } },
}

local function create(list)
  T.call(other, 'list/create', {
    list = list,
    content = { sections = {
      { id = 'a', header = 'A', kind = 'k', headerMode = 'none', items = { { id = 'a1', text = 'one' } } },
      { id = 'b', header = 'B', items = { { id = 'b1', text = 'two' } } },
    } },
  })
end

-- The list's snapshot as a fresh full subscriber gets it.
local function fresh(list)
  local entry = T.call(other, 'list/subscribe', { list = list, snapshot = 'full' }).lists[1]
  T.call(other, 'list/unsubscribe', { list = list })
  return entry
end

T.case('listd.mirror applies kind and headerMode from section reloads and inserted sections', function()
  create('m')
  local m = mirror.from_subscribe(fresh('m'))
  T.eq(fresh('m').snapshot, m:snapshot(), 'subscribed')
  for step, edits in ipairs(STEPS) do
    local answer = T.call(other, 'list/edit', { list = 'm', edits = edits, rows = 'all' })
    local ok, err = mirror.try(function()
      m:apply_did_change({ list = 'm', version = answer.version, previousVersion = m.version, changeset = answer.changeset })
    end)
    T.ok(ok, 'step ' .. step .. ': ' .. tostring(err))
    T.eq(fresh('m').snapshot, m:snapshot(), 'step ' .. step .. ' ' .. vim.inspect(answer.changeset))
  end
end)

T.case('the buffer holds them from its windowed subscription and changesets; headerMode none hides the header text', function()
  create('w')
  vim.cmd('Listd open w')
  for step = 0, #STEPS do
    if step > 0 then
      T.wait_version(T.call(other, 'list/edit', { list = 'w', edits = STEPS[step] }).version)
    end
    T.wait(function()
      return buffer.settled(T.view())
    end, 'every row drawn')
    local entry, view = fresh('w'), T.view()
    T.eq(entry.snapshot, view.mirror:snapshot(), 'the buffer at step ' .. step)
    T.eq(render.render(mirror.new('w', entry.version, entry.snapshot), view.info).lines, T.lines(), 'lines at step ' .. step)
  end
  -- a: headerMode none again (cleared to supplementary at step 4? no: cleared, so its header shows);
  -- c: supplementary; d: none, so its header text D does not show.
  T.eq({ '§ A', '    one', '§ b', '    two', '§ d', '    d1', '    d2', '§ C', '    c1' }, vim.list_slice(T.lines(), 2, 10))
end)

T.case('a header line shows the header text only in the supplementary mode', function()
  T.eq('§ A', (render.header_line({ id = 'a', header = 'A' })), 'supplementary by default')
  T.eq('§ A', (render.header_line({ id = 'a', header = 'A', headerMode = 'supplementary' })), 'supplementary')
  T.eq('§ a', (render.header_line({ id = 'a', header = 'A', headerMode = 'none' })), 'none')
  T.eq('§ a', (render.header_line({ id = 'a', header = 'A', headerMode = 'firstItemInSection' })), 'first item')
end)

T.run()

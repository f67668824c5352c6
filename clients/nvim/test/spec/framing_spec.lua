-- The Content-Length decoder: frames split anywhere, several per chunk, LF-only headers, bad headers.
local T = dofile(os.getenv('LISTD_NVIM_ROOT') .. '/test/helpers.lua')
local framing = require('listd.framing')

local function frame(body)
  return framing.encode(body)
end

T.case('encode counts bytes, not characters', function()
  T.eq('Content-Length: 7\r\n\r\n"§ é"', frame('"§ é"'))
end)

T.case('frames split at every byte come out whole and in order', function()
  local bodies = { '{"a":1}', '{"text":"Ünïcode ▸ ▾"}', '[]' }
  local stream = table.concat(vim.tbl_map(frame, bodies))
  local decoder, got = framing.decoder(), {}
  for i = 1, #stream do
    vim.list_extend(got, (decoder:feed(stream:sub(i, i))))
  end
  T.eq(bodies, got)
end)

T.case('several frames in one chunk, and a frame split across chunks', function()
  local decoder = framing.decoder()
  local stream = frame('{"x":1}') .. frame('{"y":2}') .. frame('{"z":3}')
  local cut = #stream - 3
  T.eq({ '{"x":1}', '{"y":2}' }, (decoder:feed(stream:sub(1, cut))))
  T.eq({ '{"z":3}' }, (decoder:feed(stream:sub(cut + 1))))
  T.eq({}, (decoder:feed('')))
end)

T.case('header names are case-insensitive; LF-only line ends and other headers are accepted', function()
  local decoder = framing.decoder()
  local bodies = decoder:feed('content-length: 2\nContent-Type: application/vscode-jsonrpc; charset=utf-8\n\n{}')
  T.eq({ '{}' }, bodies)
end)

T.case('a header without a length is reported and skipped', function()
  local decoder = framing.decoder()
  local bodies, errors = decoder:feed('X-Nothing: 1\r\n\r\n' .. frame('{"ok":true}'))
  T.eq(1, #errors, vim.inspect(errors))
  T.eq({ '{"ok":true}' }, bodies, 'the next well-formed frame')
  T.eq({ '{"after":1}' }, (decoder:feed(frame('{"after":1}'))))
end)

T.run()

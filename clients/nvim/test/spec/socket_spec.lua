-- Sockets the plugin refuses (a directory others can enter or own, a socket or directory link someone else owns) and its side closed at the end of file.
local T = dofile(os.getenv('LISTD_NVIM_ROOT') .. '/test/helpers.lua')
T.setup({ socket = false })
local session = require('listd.session')
local uv = vim.uv or vim.loop

local root = uv.getuid() == 0
local NOBODY = 65534

-- `:Listd connect path`, typed: the error message it gives (nil when it connected).
local function connect(path)
  session.disconnect()
  local from = #T.messages + 1
  T.feed(':Listd connect ' .. vim.fn.fnameescape(path) .. '<CR>')
  local errors = T.notified(from, vim.log.levels.ERROR)
  return errors[1]
end

-- A private daemon's socket and its directory, after `prepare(dir, path)` changed them.
local function daemon(prepare)
  local path = T.daemon()
  local dir = vim.fn.fnamemodify(path, ':h')
  if prepare then
    prepare(dir, path)
  end
  return path, dir
end

T.case('a private directory and your own socket: it connects', function()
  local path = daemon()
  T.eq(nil, connect(path))
  T.ok(session.connected(), 'connected')
end)

T.case('a directory others can enter (0755) is refused, naming it and its mode', function()
  local path, dir = daemon(function(dir)
    assert(uv.fs_chmod(dir, tonumber('755', 8)))
  end)
  T.eq('listd: refusing to connect to ' .. path .. ': its directory ' .. dir .. ' can be entered by other users (mode 755); only a directory no one else can enter (mode 700) is trusted', connect(path))
  T.ok(not session.connected(), 'not connected')
  T.eq(nil, session.conn, 'no connection was made')
end)

T.case('a directory only its group can read (0750) is refused too', function()
  local path = daemon(function(dir)
    assert(uv.fs_chmod(dir, tonumber('750', 8)))
  end)
  T.ok(connect(path):find('(mode 750)', 1, true), 'refused')
  T.ok(not session.connected(), 'not connected')
end)

T.case('the default socket path in a directory others can enter is refused (socket = true)', function()
  local runtime = vim.fn.tempname()
  vim.fn.mkdir(runtime, 'p', tonumber('700', 8))
  local path = runtime .. '/listd/listd.sock'
  vim.fn.mkdir(runtime .. '/listd', 'p', tonumber('755', 8))
  assert(uv.fs_chmod(runtime .. '/listd', tonumber('700', 8)))
  local handle = uv.spawn(T.bin, { args = { '--listen', path, '--stay' } }, function() end)
  T.daemons[#T.daemons + 1] = handle
  T.wait(function()
    local stat = uv.fs_stat(path)
    return stat and stat.type == 'socket'
  end, 'the socket ' .. path)
  assert(uv.fs_chmod(runtime .. '/listd', tonumber('755', 8)))
  local saved = vim.env.XDG_RUNTIME_DIR
  vim.env.XDG_RUNTIME_DIR = runtime
  session.disconnect()
  require('listd').setup({ cmd = { '/nonexistent/listd' }, socket = true })
  local from = #T.messages + 1
  vim.cmd('Listd open contacts')
  T.wait(function()
    return T.notified(from, vim.log.levels.ERROR)[1]
  end, 'the refusal')
  T.ok(T.notified(from, vim.log.levels.ERROR)[1]:find('refusing to connect to ' .. path .. ': its directory ' .. runtime .. '/listd can be entered by other users (mode 755)', 1, true), vim.inspect(T.notified(from)))
  T.ok(T.lines()[1]:match('disconnected$'), T.lines()[1])
  T.ok(not session.connected(), 'not connected')
  vim.cmd('bwipeout')
  vim.env.XDG_RUNTIME_DIR = saved
  require('listd').setup({ cmd = { T.bin }, socket = false })
end)

T.case(':checkhealth listd reports a refused socket as an error', function()
  local path = daemon(function(dir)
    assert(uv.fs_chmod(dir, tonumber('755', 8)))
  end)
  require('listd').setup({ cmd = { T.bin }, socket = path })
  vim.cmd('checkhealth listd')
  local text = table.concat(T.lines(), '\n')
  vim.cmd('tabclose')
  T.ok(text:find('ERROR') and text:find('refusing to connect to ' .. path, 1, true), text)
  require('listd').setup({ cmd = { T.bin }, socket = false })
end)

if root then
  T.case('a socket someone else owns (chown nobody) is refused, naming it and its owner', function()
    local path = daemon(function(_, path)
      assert(uv.fs_chown(path, NOBODY, NOBODY))
    end)
    T.eq('listd: refusing to connect to ' .. path .. ': ' .. path .. ' belongs to uid 65534, not to you (uid 0)', connect(path))
    T.ok(not session.connected(), 'not connected')
  end)

  T.case('a private directory someone else owns is refused', function()
    local path, dir = daemon(function(dir)
      assert(uv.fs_chown(dir, NOBODY, NOBODY))
    end)
    T.eq('listd: refusing to connect to ' .. path .. ': its directory ' .. dir .. ' belongs to uid 65534, not to you (uid 0)', connect(path))
  end)

  T.case('a directory that is a symbolic link someone else owns is refused', function()
    local path, dir = daemon()
    local link = vim.fn.tempname()
    assert(uv.fs_symlink(dir, link))
    T.eq(0, vim.fn.system({ 'chown', '-h', 'nobody', link }) == '' and 0 or vim.v.shell_error, 'chown -h')
    local via = link .. '/s'
    T.eq('listd: refusing to connect to ' .. via .. ': its directory ' .. link .. ' is a symbolic link that belongs to uid 65534, not to you (uid 0)', connect(via))
  end)
else
  T.out('not root: the chown cases are skipped (they need to give a file to another user)')
end

T.case('a socket path that is not a socket is refused', function()
  local path = daemon()
  local file = vim.fn.fnamemodify(path, ':h') .. '/plain'
  vim.fn.writefile({}, file)
  T.eq('listd: refusing to connect to ' .. file .. ': ' .. file .. ' is not a socket (file)', connect(file))
end)

T.case('the daemon closing the socket: the plugin closes its side too (a stopping daemon waits for that)', function()
  local dir = vim.fn.tempname()
  vim.fn.mkdir(dir, 'p', tonumber('700', 8))
  local path = dir .. '/fake.sock'
  -- A fake daemon: it accepts, half-closes (end of file for the plugin) and reads on until its peer closes.
  local server, accepted, peer_eof = uv.new_pipe(false), nil, false
  assert(server:bind(path))
  server:listen(1, function()
    accepted = uv.new_pipe(false)
    server:accept(accepted)
    accepted:read_start(function(_, chunk)
      if not chunk then
        peer_eof = true
      end
    end)
    accepted:shutdown()
  end)
  local conn = assert(require('listd.rpc').connect(path, {}))
  T.wait(function()
    return conn.closed
  end, 'the plugin to see the end of file')
  T.wait(function()
    return peer_eof
  end, 'end of file from the plugin')
  accepted:close()
  server:close()
end)

T.case('the default socket ignores a relative XDG_RUNTIME_DIR and trailing slashes, as listd does', function()
  if require('listd.platform').darwin then
    return -- macOS reads $TMPDIR, else confstr
  end
  local config = require('listd.config')
  local saved = vim.env.XDG_RUNTIME_DIR
  local fallback = '/tmp/listd-' .. uv.getuid() .. '/listd.sock'
  vim.env.XDG_RUNTIME_DIR = '/x/'
  T.eq('/x/listd/listd.sock', config.default_socket(), 'a trailing slash')
  vim.env.XDG_RUNTIME_DIR = '/'
  T.eq('/listd/listd.sock', config.default_socket(), 'the root')
  vim.env.XDG_RUNTIME_DIR = 'rel/dir'
  T.eq(fallback, config.default_socket(), 'a relative directory')
  vim.env.XDG_RUNTIME_DIR = ''
  T.eq(fallback, config.default_socket(), 'an empty value')
  vim.env.XDG_RUNTIME_DIR = saved
end)

T.run()

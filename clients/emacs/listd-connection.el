;;; listd-connection.el --- The listd package's one connection to the daemon  -*- lexical-binding: t; -*-

;; Copyright (C) 2026 The listd authors

;; Author: The listd authors
;; URL: https://github.com/listd/listd
;; Keywords: tools

;; This file is not part of GNU Emacs.

;;; Commentary:

;; JSON-RPC over a Unix socket or a spawned daemon's stdio, with
;; `jsonrpc'.  Before connecting to a socket the same trust checks as
;; listctl, the Python client and the Neovim plugin run: the socket's
;; directory belongs to this user and no one else can enter it, and the
;; socket belongs to this user.  The default socket is found by the
;; daemon's own rule (Protocol/README.md, "stdio and socket together").

;;; Code:

(require 'cl-lib)
(require 'jsonrpc)
(require 'subr-x)

(defgroup listd nil
  "Live lists served by the listd daemon."
  :group 'tools
  :prefix "listd-")

(defcustom listd-program "listd"
  "The daemon `listd-spawn' starts over stdio."
  :type 'string)

(defcustom listd-socket t
  "Where commands connect when there is no connection.
t: the daemon's default socket; a string: that socket; nil: spawn
`listd-program' over stdio (a private daemon)."
  :type '(choice (const :tag "The default socket" t)
                 (file :tag "A socket")
                 (const :tag "Spawn a private daemon" nil)))

(defcustom listd-request-timeout 10
  "Seconds to wait for an answer before giving up on a request."
  :type 'number)

(defcustom listd-events-buffer-size 0
  "Characters of JSON-RPC traffic `jsonrpc' keeps in its events buffer.
0 keeps none (logging every message costs time on large lists)."
  :type 'integer)

(defvar listd--connection nil
  "The current JSON-RPC connection to listd, or nil.")

(defvar listd-connection-hook nil
  "Functions called with no arguments after a new connection is initialized.")

(defvar listd-disconnection-hook nil
  "Functions called with the reason after the connection closed.")

(defvar listd--subscribers (make-hash-table :test #'equal)
  "Per list id, the function called with each notification about it.
It is called with the method (a string) and the params.")

(defvar listd-owner-functions nil
  "Functions called with (METHOD PARAMS) for owner notifications and requests.")

;;; The default socket and trust

(defun listd--absolute (path)
  "PATH without its trailing slashes, or nil unless it is absolute."
  (when (and (stringp path) (string-prefix-p "/" path))
    (replace-regexp-in-string "/+\\'" "" path)))

(defun listd-default-socket-base ()
  "Return the directory of the default socket's listd/listd.sock, or nil.
Linux: $XDG_RUNTIME_DIR.  macOS: $TMPDIR, else the per-user
temporary directory of getconf DARWIN_USER_TEMP_DIR.  A value that
is not an absolute path counts as unset."
  (if (eq system-type 'darwin)
      (or (listd--absolute (getenv "TMPDIR"))
          (listd--absolute
           (string-trim (with-output-to-string
                          (with-current-buffer standard-output
                            (call-process "getconf" nil t nil "DARWIN_USER_TEMP_DIR"))))))
    (listd--absolute (getenv "XDG_RUNTIME_DIR"))))

(defun listd-default-socket ()
  "Return the daemon's default socket path, by the rule of listd itself."
  (let ((base (listd-default-socket-base)))
    (if base
        (concat base "/listd/listd.sock")
      (format "/tmp/listd-%d/listd.sock" (user-uid)))))

(defun listd-socket-problem (path)
  "Why the socket PATH may not be trusted, or nil when it may.
The answer names the path and what is wrong with it."
  (let* ((uid (user-uid))
         (directory (directory-file-name (file-name-directory path)))
         (link (file-attributes directory 'integer)))
    (cl-flet ((refuse (why) (format "refusing to connect to %s: %s" path why)))
      (cond
       ((null link)
        (format "cannot connect to %s: its directory %s does not exist" path directory))
       ((and (stringp (file-attribute-type link))
             (/= (file-attribute-user-id link) uid))
        (refuse (format "its directory %s is a symbolic link that belongs to uid %d, not to you (uid %d)"
                        directory (file-attribute-user-id link) uid)))
       (t
        (let ((dir (file-attributes (file-truename directory) 'integer))
              (socket (file-attributes path 'integer)))
          (cond
           ((not (eq (file-attribute-type dir) t))
            (refuse (format "%s is not a directory" directory)))
           ((/= (file-attribute-user-id dir) uid)
            (refuse (format "its directory %s belongs to uid %d, not to you (uid %d)"
                            directory (file-attribute-user-id dir) uid)))
           ((/= 0 (logand (file-modes (file-truename directory)) #o077))
            (refuse (format "its directory %s can be entered by other users (mode %o); only a directory no one else can enter (mode 700) is trusted"
                            directory (logand (file-modes (file-truename directory)) #o777))))
           ((null socket)
            (format "cannot connect to %s: it does not exist (no daemon listens there; start one with: listd --listen %s --stay)"
                    path path))
           ((not (string-prefix-p "s" (file-attribute-modes socket)))
            (refuse (format "%s is not a socket (%s)" path
                            (pcase (aref (file-attribute-modes socket) 0)
                              (?- "file") (?d "directory") (?l "link") (_ "other")))))
           ((/= (file-attribute-user-id socket) uid)
            (refuse (format "%s belongs to uid %d, not to you (uid %d)"
                            path (file-attribute-user-id socket) uid))))))))))

;;; The connection

(defun listd-connected-p ()
  "Whether there is a live connection to listd."
  (and listd--connection (jsonrpc-running-p listd--connection)))

(defun listd--dispatch-notification (_connection method params)
  "Route the notification METHOD with PARAMS to its list's subscriber."
  (let* ((name (symbol-name method))
         (list (plist-get params :list))
         (subscriber (and (stringp list) (gethash list listd--subscribers))))
    (cond
     ((string-prefix-p "owner/" name)
      (run-hook-with-args 'listd-owner-functions name params))
     ((equal name "window/logMessage")
      (message "listd: %s" (plist-get params :message)))
     (subscriber (funcall subscriber name params)))))

(defun listd--dispatch-request (_connection method params)
  "Answer the daemon's request METHOD (owner/refresh) with PARAMS."
  (run-hook-with-args 'listd-owner-functions (symbol-name method) params)
  nil)

(defun listd--make-connection (name process)
  "A connection named NAME over PROCESS, initialized asynchronously."
  (let ((connection
         (jsonrpc-process-connection
          :name name :process process
          :events-buffer-scrollback-size listd-events-buffer-size
          :notification-dispatcher #'listd--dispatch-notification
          :request-dispatcher #'listd--dispatch-request
          :on-shutdown #'listd--on-shutdown)))
    ;; Requests sent before the answer follow initialize on the stream, so the daemon
    ;; reads them after it: nothing waits for the answer.
    (jsonrpc-async-request
     connection :initialize
     (list :processId (emacs-pid) :clientInfo (list :name "emacs" :version emacs-version))
     :success-fn (lambda (_) (jsonrpc-notify connection :initialized (make-hash-table)))
     :error-fn (lambda (error)
                 (message "listd: initialize failed: %s" (plist-get error :message))))
    connection))

(defun listd--on-shutdown (connection)
  "Tell the buffers that CONNECTION closed."
  (when (eq connection listd--connection)
    (setq listd--connection nil)
    (message "listd: connection closed")
    (run-hook-with-args 'listd-disconnection-hook "connection closed")))

(defun listd--adopt (connection)
  "Make CONNECTION the current one and tell the buffers."
  (setq listd--connection connection)
  (run-hooks 'listd-connection-hook)
  connection)

(defun listd-disconnect ()
  "End the current connection (a spawned daemon then exits)."
  (interactive)
  (let ((connection listd--connection))
    (setq listd--connection nil)
    (when (and connection (jsonrpc-running-p connection))
      (ignore-errors (jsonrpc-notify connection :exit nil))
      ;; jsonrpc would say "Server exited with status 0", even of a socket.
      (let ((inhibit-message t) (message-log-max nil))
        (jsonrpc-shutdown connection t)))
    (when connection
      (when (called-interactively-p 'interactive) (message "listd: disconnected"))
      (run-hook-with-args 'listd-disconnection-hook "disconnected"))))

;;;###autoload
(defun listd-connect (&optional socket)
  "Connect to the listd daemon listening on SOCKET (the default socket).
The socket must be yours, in a directory only you can enter;
otherwise the connection is refused with a message naming the
path and the problem."
  (interactive
   (list (when current-prefix-arg
           (read-file-name "listd socket: " nil (listd-default-socket) t))))
  (let* ((path (expand-file-name (or socket (listd-default-socket))))
         (problem (listd-socket-problem path)))
    (when problem
      (user-error "listd: %s%s" problem
                  (if (string-prefix-p "cannot connect" problem)
                      (substitute-command-keys "; \\[listd-spawn] starts a private daemon")
                    "")))
    (listd-disconnect)
    (let ((process (condition-case err
                       (make-network-process
                        :name "listd" :family 'local :service path
                        :coding 'utf-8-emacs-unix :noquery t)
                     (file-error (user-error "Cannot connect to %s: %s"
                                             path (error-message-string err))))))
      (prog1 (listd--adopt (listd--make-connection (format "listd %s" path) process))
        (when (called-interactively-p 'interactive)
          (message "listd: connected to %s" path))))))

;;;###autoload
(defun listd-spawn (&rest arguments)
  "Start a private daemon, `listd-program' with ARGUMENTS, over stdio.
Interactively, with a prefix argument, read the arguments (for
example --demo)."
  (interactive (when current-prefix-arg
                 (split-string-and-unquote (read-string "listd arguments: " "--demo"))))
  (unless (executable-find listd-program)
    (user-error "Cannot start listd: %s is not on `exec-path' (customize `listd-program')"
                listd-program))
  (listd-disconnect)
  (let ((name (format "listd %s" (string-join (cons listd-program arguments) " "))))
    (listd--adopt
     (listd--make-connection
      name
      (make-process :name name :command (cons listd-program arguments)
                    :connection-type 'pipe :coding 'utf-8-emacs-unix :noquery t
                    :stderr (get-buffer-create (format "*%s stderr*" name))))))
  (when (called-interactively-p 'interactive)
    (message "listd: started a private daemon (%s)" (string-join (cons listd-program arguments) " ")))
  listd--connection)

(defun listd-ensure-connection ()
  "Return the current connection, made per `listd-socket' if there is none."
  (cond ((listd-connected-p) listd--connection)
        ((null listd-socket) (listd-spawn))
        ((stringp listd-socket) (listd-connect listd-socket))
        (t (listd-connect))))

(defun listd--error-message (error)
  "A JSON-RPC ERROR object as a message."
  (format "%s%s" (or (plist-get error :message) "error")
          (if (plist-get error :code) (format " (%s)" (plist-get error :code)) "")))

(defun listd--plain-error (error &optional name)
  "A JSON-RPC ERROR object in plain words; NAME is the list as the user knows it.
The daemon's messages name lists by id (a view's id too) and end
with a code; these say what happened instead."
  (let ((code (plist-get error :code))
        (text (or (plist-get error :message) "error"))
        (name (or name "the list")))
    (cond
     ((and (eql code -32014) (string-match-p "selection mode is none" text))
      (format "items of %s cannot be selected" name))
     ((eql code -32014) (format "%s does not allow that: %s" name
                                (replace-regexp-in-string "\\`[^:]*: " "" text)))
     ((eql code -32016) (format "nobody owns %s, so no one receives that" name))
     ((eql code -32010) (format "%s is gone (g shows it again once it exists)" name))
     ((eql code -32099) (format "the daemon did not answer within %s s" listd-request-timeout))
     (t text))))

(cl-defun listd-request (method params &key then else)
  "Send METHOD (a string) with PARAMS; never wait for the answer.
THEN is called with the result; ELSE with the error object (by
default the error is shown as a message)."
  (let ((connection (listd-ensure-connection)))
    (jsonrpc-async-request
     connection (intern method) (or params (make-hash-table))
     :timeout listd-request-timeout
     :success-fn (lambda (result) (when then (funcall then result)))
     :error-fn (lambda (error)
                 (if else (funcall else error)
                   (message "listd: %s" (listd--plain-error error (plist-get params :list)))))
     :timeout-fn (lambda ()
                   (let ((error (list :code -32099 :message (format "no answer within %s s" listd-request-timeout))))
                     (if else (funcall else error)
                       (message "listd: %s: %s" method (listd--plain-error error))))))))

(defun listd-request-sync (method params)
  "Send METHOD with PARAMS and wait for the result; any key stops waiting.
Used only where a person waits anyway: completing a list's name."
  (condition-case err
      (jsonrpc-request (listd-ensure-connection) (intern method)
                       (or params (make-hash-table)) :timeout listd-request-timeout
                       :cancel-on-input t)
    (jsonrpc-error
     (user-error "listd: %s: %s" method (alist-get 'jsonrpc-error-message (cdr err))))))

(provide 'listd-connection)
;;; listd-connection.el ends here

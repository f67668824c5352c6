;;; listd-test-helpers.el --- A private daemon, an owner and waiting, for the ERT tests  -*- lexical-binding: t; -*-

;;; Commentary:

;; Each test starts the built listd ($LISTD_BIN) on a socket in a fresh
;; directory only this user can enter, talks to it through the package as
;; a user would, and through a second connection as the lists' owner.

;;; Code:

(require 'ert)
(require 'jsonrpc)
(require 'listd)

(defvar listd-test-directory nil "The private directory of the running test.")
(defvar listd-test-daemon nil "The daemon process of the running test.")
(defvar listd-test-owner nil "The owner's connection of the running test.")
(defvar listd-test-owner-events nil "Owner notifications and requests received, newest first.")

(defun listd-test-binary ()
  "The daemon under test."
  (or (getenv "LISTD_BIN") (error "LISTD_BIN is not set")))

(defun listd-test-wait (predicate &optional what seconds)
  "Wait until PREDICATE is true; fail naming WHAT after SECONDS (60: a loaded machine is slow)."
  (let ((deadline (+ (float-time) (or seconds (string-to-number (or (getenv "LISTD_TEST_WAIT") "60"))))) value)
    (while (and (not (setq value (funcall predicate))) (< (float-time) deadline))
      (accept-process-output nil 0.01))
    (or value (ert-fail (list "timed out waiting" (or what predicate))))))

(defun listd-test-socket ()
  "The socket of the running test's daemon."
  (expand-file-name "s" listd-test-directory))

(defun listd-test-start-daemon (&rest arguments)
  "Start listd on the test's socket with ARGUMENTS and wait for it."
  (let ((socket (listd-test-socket)))
    (setq listd-test-daemon
          (make-process :name "listd-test-daemon"
                        :command (append (list (listd-test-binary) "--listen" socket "--stay"
                                               "--log-file" (expand-file-name "listd.log" listd-test-directory))
                                         arguments)
                        :connection-type 'pipe :noquery t
                        :buffer (get-buffer-create " *listd-test-daemon*")))
    (listd-test-wait (lambda () (file-exists-p socket)) "the daemon's socket")))

(defun listd-test-stop-daemon ()
  "Stop the test's daemon and wait for it to end."
  (when (process-live-p listd-test-daemon)
    (signal-process listd-test-daemon 'SIGTERM)
    (listd-test-wait (lambda () (not (process-live-p listd-test-daemon))) "the daemon to stop")))

(defun listd-test--owner-notified (_connection method params)
  "Record the owner notification METHOD with PARAMS."
  (push (cons (symbol-name method) params) listd-test-owner-events))

(defun listd-test--owner-requested (_connection method params)
  "Record the owner request METHOD with PARAMS and answer it."
  (push (cons (symbol-name method) params) listd-test-owner-events)
  nil)

(defun listd-test-connect-owner ()
  "Connect the owner: a second session of the test's daemon."
  (let ((process (make-network-process :name "listd-test-owner" :family 'local
                                       :service (listd-test-socket) :coding 'utf-8-emacs-unix :noquery t)))
    (setq listd-test-owner
          (jsonrpc-process-connection :name "listd-test-owner" :process process
                                      :events-buffer-scrollback-size 0
                                      :notification-dispatcher #'listd-test--owner-notified
                                      :request-dispatcher #'listd-test--owner-requested))
    (listd-test-call "initialize" (list :clientInfo (list :name "owner")))))

(defun listd-test-call (method params)
  "Send METHOD with PARAMS as the owner and return the result."
  (jsonrpc-request listd-test-owner (intern method) (or params (make-hash-table)) :timeout 60))

(defun listd-test-owner-event (method &optional predicate)
  "Wait for the owner to receive METHOD (matching PREDICATE); return its params."
  (cdr (listd-test-wait
        (lambda () (seq-find (lambda (event) (and (equal (car event) method)
                                                  (or (null predicate) (funcall predicate (cdr event)))))
                             listd-test-owner-events))
        method)))

(defmacro listd-test-with-daemon (arguments &rest body)
  "Run BODY with a private daemon started with ARGUMENTS and its owner."
  (declare (indent 1) (debug t))
  `(let* ((listd-test-directory (make-temp-file "listd-emacs-" t))
          (listd-test-daemon nil) (listd-test-owner nil) (listd-test-owner-events nil)
          (listd-socket nil)
          (listd-request-timeout 120)
          (listd--mismatches 0))
     (set-file-modes listd-test-directory #o700)
     (setq listd-socket (listd-test-socket))
     (unwind-protect
         (progn
           (listd-test-start-daemon ,@arguments)
           (listd-test-connect-owner)
           ,@body)
       (dolist (buffer (buffer-list))
         (when (with-current-buffer buffer (derived-mode-p 'listd-mode))
           (kill-buffer buffer)))
       (listd-disconnect)
       (when listd-test-owner (ignore-errors (jsonrpc-shutdown listd-test-owner t)))
       (listd-test-stop-daemon)
       (delete-directory listd-test-directory t))))

(defun listd-test-open (list)
  "Open LIST as a user would and wait until its rows are shown."
  (let ((buffer (listd-open list)))
    (with-current-buffer buffer
      (listd-test-wait (lambda () listd--mirror) (format "%s to open" list)))
    buffer))

(defun listd-test-text (&optional buffer)
  "BUFFER's text without properties."
  (with-current-buffer (or buffer (current-buffer))
    (buffer-substring-no-properties (point-min) (point-max))))

(defun listd-test-goto (id)
  "Put point on item ID's line."
  (goto-char (or (listd--item-position id) (ert-fail (list "no line for item" id)))))

(defun listd-test-wait-version (version)
  "Wait until the current buffer shows VERSION."
  (listd-test-wait (lambda () (and listd--mirror (>= (listd-mirror-version listd--mirror) version)))
                   (format "version %d" version)))

(defun listd-test-items (count &optional prefix)
  "COUNT items with ids PREFIX0 ... as a vector."
  (let ((prefix (or prefix "i")))
    (vconcat (cl-loop for i below count
                      collect (list :id (format "%s%d" prefix i) :text (format "Item %d" i))))))

(provide 'listd-test-helpers)
;;; listd-test-helpers.el ends here

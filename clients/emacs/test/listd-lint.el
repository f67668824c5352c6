;;; listd-lint.el --- Byte-compile, checkdoc and package-lint the listd package  -*- lexical-binding: t; -*-

;;; Commentary:

;; emacs -Q --batch -l clients/emacs/test/listd-lint.el -f listd-lint-batch [CHECK...]
;; Each CHECK is compile (no warning), checkdoc or package-lint (Debian's
;; elpa-package-lint); all three without one.  Prints every problem and exits 1 if there is one.
;; The package is copied to a temporary directory first, so no .elc is
;; left beside the sources.

;;; Code:

(require 'bytecomp)
(require 'checkdoc)
(require 'package)

(defconst listd-lint-files '("listd.el" "listd-connection.el" "listd-mirror.el" "listd-words.el")
  "The package's files; listd.el is the main one.")

(defconst listd-lint-source
  (expand-file-name ".." (file-name-directory (or load-file-name buffer-file-name)))
  "clients/emacs.")

(defun listd-lint--copy ()
  "Copy the package to a fresh directory and return it."
  (let ((directory (make-temp-file "listd-lint-" t)))
    (dolist (file listd-lint-files)
      (copy-file (expand-file-name file listd-lint-source) (expand-file-name file directory)))
    directory))

(defun listd-lint-compile (directory)
  "Byte-compile the package in DIRECTORY; return the problems."
  (let ((load-path (cons directory load-path))
        (byte-compile-error-on-warn t)
        problems)
    (dolist (file listd-lint-files)
      (let ((log (with-current-buffer (get-buffer-create byte-compile-log-buffer)
                   (let ((inhibit-read-only t)) (erase-buffer))
                   (current-buffer))))
        (unless (byte-compile-file (expand-file-name file directory))
          (push (format "%s: %s" file (with-current-buffer log (buffer-string))) problems))))
    (nreverse problems)))

(defun listd-lint-checkdoc (directory)
  "Run checkdoc over the package in DIRECTORY; return the problems."
  (let (problems)
    (dolist (file listd-lint-files)
      (let ((checkdoc-create-error-function
             (lambda (text start _end &optional _unfixable)
               (push (format "%s:%d: %s" file (line-number-at-pos start) text) problems)
               nil))
            (checkdoc-autofix-flag 'never)
            (checkdoc-spellcheck-documentation-flag nil))
        (with-current-buffer (find-file-noselect (expand-file-name file directory))
          (checkdoc-current-buffer t))))
    (nreverse problems)))

(defun listd-lint-package-lint (directory)
  "Run package-lint over the package in DIRECTORY; return the problems."
  ;; Debian's elpa-package-lint, which -Q does not activate; else an installed package.
  (dolist (directory (file-expand-wildcards "/usr/share/emacs/site-lisp/elpa/package-lint-*"))
    (add-to-list 'load-path directory))
  (unless (locate-library "package-lint") (package-initialize))
  (unless (require 'package-lint nil t)
    (error "Package-lint is not installed (Debian: elpa-package-lint; else M-x package-install RET package-lint)"))
  ;; Offline, no archive lists jsonrpc: say what GNU ELPA has (jsonrpc is on it, and 1.0.14 is the
  ;; version Emacs 28 bundles), so the dependency is checked as it would be against the archive.
  (unless (assq 'jsonrpc package-archive-contents)
    (push (list 'jsonrpc (package-desc-create :name 'jsonrpc :version '(1 0 14) :kind 'tar :archive "gnu"))
          package-archive-contents))
  (let ((package-lint-main-file (expand-file-name "listd.el" directory))
        problems)
    (dolist (file listd-lint-files)
      (with-current-buffer (find-file-noselect (expand-file-name file directory))
        (emacs-lisp-mode)
        (dolist (problem (package-lint-buffer))
          ;; package-lint 0.16 (Debian 12's) predates Emacs 28.1 and calls a dependency on it
          ;; uninstallable; the Emacs running this check is itself a released 28 or later.
          (unless (and (>= emacs-major-version 28)
                       (string-match-p "uninstallable in all released Emacs versions" (nth 3 problem)))
            (push (format "%s:%d:%d: %s: %s" file (nth 0 problem) (nth 1 problem)
                        (nth 2 problem) (nth 3 problem))
                  problems)))))
    (nreverse problems)))

(defun listd-lint-batch ()
  "Run the checks named by the command line's arguments; exit 1 on problems."
  (let ((failed nil))
    (dolist (check (or command-line-args-left '("compile" "checkdoc" "package-lint")))
      (let* ((directory (listd-lint--copy))
             (problems (pcase check
                         ("compile" (listd-lint-compile directory))
                         ("checkdoc" (listd-lint-checkdoc directory))
                         ("package-lint" (listd-lint-package-lint directory))
                         (_ (list (format "unknown check %s" check))))))
        (delete-directory directory t)
        (dolist (problem problems) (message "%s" problem))
        (message "%s: %d problem%s" check (length problems) (if (= 1 (length problems)) "" "s"))
        (when problems (setq failed t))))
    (setq command-line-args-left nil)
    (kill-emacs (if failed 1 0))))

(provide 'listd-lint)
;;; listd-lint.el ends here

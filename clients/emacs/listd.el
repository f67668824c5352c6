;;; listd.el --- Live lists from the listd daemon  -*- lexical-binding: t; -*-

;; Copyright (C) 2026 The listd authors

;; Author: The listd authors
;; URL: https://github.com/listd/listd
;; Version: 0.1.0
;; Package-Requires: ((emacs "28.1") (jsonrpc "1.0.14"))
;; Keywords: tools

;; This file is not part of GNU Emacs.

;; This program is free software; you can redistribute it and/or modify
;; it under the terms of the GNU General Public License as published by
;; the Free Software Foundation, either version 3 of the License, or
;; (at your option) any later version.

;; This program is distributed in the hope that it will be useful,
;; but WITHOUT ANY WARRANTY; without even the implied warranty of
;; MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the
;; GNU General Public License for more details.

;; You should have received a copy of the GNU General Public License
;; along with this program.  If not, see <https://www.gnu.org/licenses/>.

;;; Commentary:

;; The Emacs client of listd: live list data sources in buffers.
;; `listd-open' shows a list in a `listd-mode' buffer that follows every
;; change the daemon sends, keeping point on its item; `listd-lists'
;; shows every list; `listd-connect' and `listd-spawn' choose the daemon.
;; A buffer holds only a window of the list's rows (`listd-window-rows'),
;; so a list of a million rows opens as fast as a short one.  See
;; clients/emacs/README.md.

;;; Code:

(require 'cl-lib)
(require 'seq)
(require 'eldoc)
(require 'imenu)
(require 'subr-x)
(require 'tabulated-list)
(require 'text-property-search)
(require 'listd-connection)
(require 'listd-mirror)
(require 'listd-words)

(defcustom listd-window-rows 400
  "Rows a list buffer holds around point: the window it subscribes to."
  :type 'integer
  :group 'listd)

(defcustom listd-confirm-delete t
  "Whether \\<listd-mode-map>\\[listd-delete] asks before asking the owner to delete an item."
  :type 'boolean
  :group 'listd)

(defcustom listd-column-width-limit 30
  "The widest a table column gets without a width hint, in characters."
  :type 'integer
  :group 'listd)

(defface listd-title '((t :inherit bold))
  "The title line of a list buffer."
  :group 'listd)
(defface listd-section-header '((((min-colors 88)) :inherit (bold font-lock-function-name-face))
                                 (t :inherit bold :underline t))
  "Section headers."
  :group 'listd)
(defface listd-section-id '((t :inherit shadow))
  "The id of a section shown without header text."
  :group 'listd)
(defface listd-footer '((t :inherit shadow :slant italic))
  "Section footers."
  :group 'listd)
(defface listd-secondary '((((min-colors 88)) :inherit shadow)
                            (t :inherit default))
  "An item's secondary text."
  :group 'listd)
(defface listd-selected '((t :inherit highlight))
  "Selected items."
  :group 'listd)
(defface listd-mark '((t :inherit success))
  "The selection mark."
  :group 'listd)
(defface listd-disclosure '((t :inherit font-lock-keyword-face))
  "The outline's ▸ and ▾."
  :group 'listd)
(defface listd-badge '((t :inherit font-lock-constant-face))
  "Badge accessories."
  :group 'listd)
(defface listd-label '((t :inherit font-lock-doc-face))
  "Label accessories."
  :group 'listd)
(defface listd-accessory '((((min-colors 88)) :inherit shadow)
                            (t :inherit default))
  "Other accessories."
  :group 'listd)
(defface listd-checkmark '((t :inherit success))
  "Checkmark accessories."
  :group 'listd)
(defface listd-destructive '((t :inherit error))
  "Delete accessories."
  :group 'listd)
(defface listd-toggle-on '((t :inherit success))
  "A toggle that is on."
  :group 'listd)
(defface listd-toggle-off '((((min-colors 88)) :inherit shadow)
                             (t :inherit default))
  "A toggle that is off."
  :group 'listd)
(defface listd-progress '((t :inherit font-lock-string-face))
  "Progress accessories."
  :group 'listd)
(defface listd-empty '((t :inherit shadow))
  "Empty states and notes."
  :group 'listd)
(defface listd-stale '((t :inherit warning))
  "The note saying the rows shown are stale (disconnected)."
  :group 'listd)
(defface listd-column-header '((t :inherit (bold header-line)))
  "Table column titles."
  :group 'listd)

(defvar-local listd--list nil "The id of the list this buffer shows.")
(defvar-local listd--source nil "The list a view of this buffer derives from, or nil.")
(defvar-local listd--view nil "Plist (:filter :sort) of this buffer's view, or nil.")
(defvar-local listd--mirror nil "The buffer's `listd-mirror', or nil before the answer.")
(defvar-local listd--info nil "The list's info (title, owner, ...).")
(defvar-local listd--state nil "Why the buffer shows no rows: a string, or nil.")
(defvar-local listd--at-version nil "The version a read-only buffer shows, or nil.")
(defvar-local listd--now-version nil "The list's version when a version buffer was made.")
(defvar-local listd--after-window nil "What to do once a new window arrives.")
(defvar-local listd--sort nil "(FIELD . DESCENDING) the view sorts by, or nil.")
(defvar-local listd--source-title nil "The title of the list a view derives from.")
(defvar-local listd--pending-view nil "The id of the view being made for this buffer.")
(defvar-local listd--refetching nil
  "Non-nil while a change too large to decode waits for its window afresh.")
(defvar-local listd--stale nil
  "Why the rows shown are stale (the connection is gone), or nil.")

(defvar-local listd--lines nil
  "Drawn lines by row object: rows a change left alone are not drawn again.")

(defvar listd--view-counter 0 "The number of views this Emacs made.")

(defvar listd--mismatches 0
  "How many changesets did not fit a buffer's mirror (each then resubscribed).")

(defvar listd-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map (kbd "RET") #'listd-activate)
    (define-key map (kbd "TAB") #'listd-toggle-expansion)
    (define-key map (kbd "<backtab>") #'listd-toggle-expansion-recursively)
    (define-key map "n" #'listd-next-item)
    (define-key map "p" #'listd-previous-item)
    (define-key map "a" #'listd-actions)
    (define-key map "t" #'listd-toggle-switch)
    (define-key map "d" #'listd-delete)
    (define-key map (kbd "M-<up>") #'listd-move-up)
    (define-key map (kbd "M-<down>") #'listd-move-down)
    (define-key map "w" #'listd-explain)
    (define-key map "i" #'listd-describe-item)
    (define-key map "v" #'listd-show-version)
    (define-key map "f" #'listd-filter)
    (define-key map "s" #'listd-sort)
    (define-key map [remap scroll-up-command] #'listd-scroll-up)
    (define-key map [remap scroll-down-command] #'listd-scroll-down)
    (define-key map [remap beginning-of-buffer] #'listd-first-row)
    (define-key map [remap end-of-buffer] #'listd-last-row)
    map)
  "Keys of `listd-mode' buffers.")

(define-derived-mode listd-mode special-mode "listd"
  "A live list of the listd daemon.
The buffer follows every change of the list, keeping point on its
item.  It holds a window of `listd-window-rows' rows around point.
Moving onto a \"more rows\" line moves the window, and so do
\\[listd-first-row] and \\[listd-last-row].  \\[revert-buffer] fetches the
rows again and asks the list's owner to refresh it.

\\{listd-mode-map}"
  (setq-local revert-buffer-function #'listd--revert)
  (setq-local imenu-create-index-function #'listd--imenu-index)
  (setq-local truncate-lines t)
  (add-hook 'eldoc-documentation-functions #'listd--eldoc nil t)
  (eldoc-add-command #'listd-next-item #'listd-previous-item #'listd-first-row #'listd-last-row)
  (add-hook 'kill-buffer-hook #'listd--on-kill nil t)
  (add-hook 'post-command-hook #'listd--follow-point nil t)
  (add-hook 'window-size-change-functions #'listd--resized nil t)
  (eldoc-mode 1))

(defun listd--resized (_window)
  "Draw a table again for a window of a new size: its columns use the width."
  (when (and listd--mirror (> (length (listd-mirror-columns listd--mirror)) 0))
    (listd--render)))

;;; Opening

(defun listd--read-list (prompt)
  "Read a list's id with PROMPT, completing over the daemon's lists.
The completions show each list's title."
  (let* ((infos (listd--others-lists (plist-get (listd-request-sync "list/all" nil) :lists)))
         (titles (mapcar (lambda (info) (cons (plist-get info :list) (plist-get info :title))) infos))
         (completion-extra-properties
          (list :annotation-function
                (lambda (id)
                  (let ((title (cdr (assoc id titles))))
                    (if (and title (not (equal title id))) (concat "  " title) ""))))))
    (completing-read prompt (mapcar #'car titles) nil nil)))

(defun listd--shown-name ()
  "Return the name of this buffer's list for messages: a view by its source."
  (if listd--source (format "%s (view)" listd--source) listd--list))

(defun listd--buffer-name (list)
  "The name of the buffer showing LIST."
  (format "*listd %s*" list))

;;;###autoload
(defun listd-open (list)
  "Show LIST in a buffer following every change of the list.
Interactively, complete over the daemon's lists."
  (interactive (list (listd--read-list "listd list: ")))
  (let ((buffer (get-buffer-create (listd--buffer-name list))))
    (with-current-buffer buffer
      (unless (derived-mode-p 'listd-mode) (listd-mode))
      (cond
       ;; Opening a list shows the list itself: a filtered or sorted view goes.
       (listd--source (listd--drop-view))
       ((or (null listd--mirror) listd--stale)
        (setq listd--list list listd--state (if listd--mirror nil "Subscribing…"))
        (listd--render)
        (listd--subscribe (if listd--mirror (listd-mirror-offset listd--mirror) 0)))))
    (pop-to-buffer-same-window buffer)
    buffer))

(defun listd--subscriber (buffer)
  "The function that hands a list's notifications to BUFFER."
  (lambda (method params)
    (when (buffer-live-p buffer)
      (with-current-buffer buffer (listd--notified method params)))))

(defun listd--subscribe (offset)
  "Subscribe this buffer to its list with a window at OFFSET."
  (let ((buffer (current-buffer)) (list listd--list))
    (puthash list (listd--subscriber buffer) listd--subscribers)
    (listd-request
     "list/subscribe"
     (list :list list :window (list :offset offset :limit listd-window-rows))
     :then (lambda (result)
             (when (buffer-live-p buffer)
               (with-current-buffer buffer
                 (when (equal list listd--list)
                   (let ((entry (aref (plist-get result :lists) 0)))
                     (listd--adopt-window entry offset))))))
     :else (lambda (error)
             (when (buffer-live-p buffer)
               (with-current-buffer buffer
                 (setq listd--mirror nil
                       listd--state (if (eql (plist-get error :code) -32010)
                                        (format "No list %s (yet): the buffer fills when it is created." list)
                                      (format "Cannot subscribe: %s" (listd--error-message error))))
                 (listd--render)))))))

(defun listd--adopt-window (answer offset)
  "Replace the buffer's mirror by the window ANSWER at OFFSET."
  (when (plist-get answer :info) (setq listd--info (plist-get answer :info)))
  (setq listd--mirror (listd-mirror-from-window
                       listd--list (plist-get answer :version) answer offset listd-window-rows)
        listd--state nil listd--stale nil listd--refetching nil)
  (listd--render)
  (when listd--after-window
    (let ((after listd--after-window))
      (setq listd--after-window nil)
      (funcall after))))

(defun listd--notified (method params)
  "Handle the notification METHOD with PARAMS about this buffer's list."
  (pcase method
    ("list/didChange"
     (cond
      ;; The window asked for afresh supersedes every change before its answer.
      ((or (null listd--mirror) listd--refetching
           (<= (plist-get params :version) (listd-mirror-version listd--mirror))))
      ((listd--larger-than-window-p (plist-get params :changeset))
       (listd--refetch-window))
      (t
       (condition-case err
           ;; Process filters run with quitting inhibited: let C-g stop a long
           ;; change.  Applying works on a copy, so a stopped change leaves the
           ;; old mirror, which a resubscription brings up to date.
           (unless (with-local-quit
                     (setq listd--mirror (listd-mirror-apply listd--mirror params))
                     (listd--render)
                     t)
             (message "listd: %s: change stopped (quit): resubscribing" (listd--shown-name))
             (listd--subscribe (listd-mirror-offset listd--mirror)))
         (listd-mismatch
          (cl-incf listd--mismatches)
          (message "listd: %s: resubscribing (%s)" listd--list (cadr err))
          (listd--subscribe (listd-mirror-offset listd--mirror)))))))
    ("list/resync" (listd--subscribe (if listd--mirror (listd-mirror-offset listd--mirror) 0)))
    ("list/didDispose"
     ;; A view goes with its source: it comes back when the source is created again.
     (when listd--source (puthash listd--source (listd--subscriber (current-buffer)) listd--subscribers))
     (setq listd--mirror nil listd--state (format "%s was disposed." (listd--shown-name)))
     (listd--render))
    ("list/didCreate"
     (when (and listd--source (equal (plist-get params :list) listd--source))
       (setq listd--source-title (plist-get (plist-get params :info) :title)))
     (unless listd--mirror
       (if listd--source (listd--make-view) (listd--subscribe 0))))))

(defun listd--larger-than-window-p (changeset)
  "Return non-nil for a CHANGESET larger than a window fetched afresh.
A windowed buffer then asks for its window again: reversing a
sorted view of 100,000 rows is 99,999 moves, which Lisp would
decode for seconds to place the few rows the window holds."
  (and (listd-mirror-limit listd--mirror)
       (> (+ (length (plist-get changeset :itemMoves))
             (length (plist-get changeset :itemDeletes))
             (length (plist-get changeset :itemInserts)))
          (* 4 (listd-mirror-limit listd--mirror)))))

(defun listd--refetch-window ()
  "Ask for the buffer's window afresh (`list/setWindow' at its offset)."
  (let ((buffer (current-buffer)) (offset (listd-mirror-offset listd--mirror)))
    (setq listd--refetching t)
    (listd-request "list/setWindow"
                   (list :list listd--list :offset offset :limit listd-window-rows)
                   :then (lambda (answer)
                           (when (buffer-live-p buffer)
                             (with-current-buffer buffer
                               (listd--adopt-window answer offset))))
                   :else (lambda (_)
                           (when (buffer-live-p buffer)
                             (with-current-buffer buffer
                               (setq listd--refetching nil)
                               (listd--subscribe offset)))))))

(defun listd--sentence (text)
  "TEXT with its first letter capitalised only (\"Connection closed\")."
  (if (string-empty-p text) text (concat (upcase (substring text 0 1)) (substring text 1))))

(defun listd--resubscribe-all ()
  "Subscribe every list buffer again (after a new connection)."
  (dolist (buffer (buffer-list))
    (with-current-buffer buffer
      (when (and (derived-mode-p 'listd-mode) listd--list (not listd--at-version))
        (if (and listd--source listd--view)
            (listd--make-view)
          (listd--subscribe (if listd--mirror (listd-mirror-offset listd--mirror) 0)))))))

(defun listd--disconnected (reason)
  "Show REASON in every list buffer: the connection is gone."
  (dolist (buffer (buffer-list))
    (with-current-buffer buffer
      (when (and (derived-mode-p 'listd-mode) (not listd--at-version))
        ;; The last rows stay visible, marked stale, until g reconnects.
        (if listd--mirror
            (setq listd--stale reason)
          (setq listd--state (format "%s: \\[revert-buffer] reconnects." (listd--sentence reason))))
        (listd--render)))))

(add-hook 'listd-connection-hook #'listd--resubscribe-all)
(add-hook 'listd-disconnection-hook #'listd--disconnected)

(defun listd--on-kill ()
  "Unsubscribe from the list, and dispose this buffer's view."
  (when listd--list
    (remhash listd--list listd--subscribers)
    (when (and (listd-connected-p) (not listd--at-version))
      (let ((list listd--list))
        (listd-request "list/unsubscribe" (list :list list) :else #'ignore)
        (when listd--source
          (listd-request "list/dispose" (list :list list) :else #'ignore))))))

;;; Drawing

(defconst listd--symbols
  '(("star.fill" . "★") ("star" . "☆") ("heart.fill" . "♥") ("heart" . "♡")
    ("checkmark" . "✓") ("checkmark.circle.fill" . "✔") ("xmark" . "✗")
    ("flag.fill" . "⚑") ("flag" . "⚐") ("bell.fill" . "🔔") ("lock.fill" . "🔒")
    ("folder" . "📁") ("folder.fill" . "📁") ("doc" . "📄") ("doc.text" . "📄")
    ("circle.fill" . "●") ("circle" . "○") ("exclamationmark.triangle.fill" . "⚠")
    ("info.circle" . "ⓘ") ("person" . "👤") ("person.fill" . "👤"))
  "Characters for the image names (SF Symbols) owners use most.
Other names show as <name>.")

(defun listd--accessory-rank (accessory)
  "Where ACCESSORY sits: (EDGE . RANK), leading edge 0, trailing 1."
  (let* ((kind (plist-get accessory :type))
         (placement (plist-get accessory :placement))
         (leading (if (member placement '("leading" "trailing"))
                      (equal placement "leading")
                    (member kind '("delete" "multiselect"))))
         (order (cl-position kind '("delete" "multiselect" "label" "detail" "checkmark"
                                     "popUpMenu" "outlineDisclosure" "reorder"
                                     "disclosureIndicator")
                             :test #'equal)))
    (cons (if leading 0 1) (if order (1+ order) (if leading 10 0)))))

(defun listd-ordered-accessories (accessories)
  "Sort ACCESSORIES into their order on a row, leading edge to trailing.
System accessories sit by type (Protocol/README.md, \"Accessory
order\"); custom ones keep their array order nearest the content."
  (let ((index 0))
    (mapcar #'cdr
            (sort (mapcar (lambda (accessory)
                            (cons (list (listd--accessory-rank accessory) (cl-incf index))
                                  accessory))
                          accessories)
                  (lambda (a b)
                    (let ((ra (car (car a))) (rb (car (car b))))
                      (cond ((/= (car ra) (car rb)) (< (car ra) (car rb)))
                            ((/= (cdr ra) (cdr rb)) (< (cdr ra) (cdr rb)))
                            (t (< (cadr (car a)) (cadr (car b)))))))))))

(defun listd--flat (text)
  "TEXT on one line."
  (replace-regexp-in-string "[\r\n]+" " " (or text "")))

(defun listd--accessory-text (accessory selected)
  "ACCESSORY as text with its face; SELECTED for multiselect; nil if none."
  (pcase (plist-get accessory :type)
    ("disclosureIndicator" (propertize "›" 'face 'listd-accessory))
    ("checkmark" (propertize "✓" 'face 'listd-checkmark))
    ("detail" (propertize "ⓘ" 'face 'listd-accessory))
    ("reorder" (propertize "≡" 'face 'listd-accessory))
    ("delete" (propertize "⊖" 'face 'listd-destructive))
    ("multiselect" (propertize (if selected "☑" "☐") 'face 'listd-accessory))
    ("outlineDisclosure" nil)
    ("label" (propertize (listd--flat (plist-get accessory :text)) 'face 'listd-label))
    ("badge" (propertize (format "[%s]" (listd--flat (plist-get accessory :text))) 'face 'listd-badge))
    ((or "image" "custom")
     (let ((name (listd--flat (or (plist-get accessory :name) ""))))
       (propertize (or (cdr (assoc name listd--symbols)) (format "<%s>" name))
                   'face 'listd-accessory)))
    ("progress" (let* ((value (max 0 (min 1 (or (plist-get accessory :value) 0))))
                       (filled (floor (+ 0.5 (* 10 value)))))
                  (propertize (format "%s%s %d%%" (make-string filled ?█) (make-string (- 10 filled) ?░)
                                      (floor (+ 0.5 (* 100 value))))
                              'face 'listd-progress)))
    ("activityIndicator" (propertize "⟳" 'face 'listd-accessory))
    ("toggle" (if (eq (plist-get accessory :isOn) t)
                  (propertize "[on]" 'face 'listd-toggle-on)
                (propertize "[off]" 'face 'listd-toggle-off)))
    ("popUpMenu" (propertize "⋯" 'face 'listd-accessory))
    (kind (propertize (format "%s" kind) 'face 'listd-accessory))))

(defun listd--shown-p (accessory editing)
  "Return non-nil if ACCESSORY is drawn while the editing mode is EDITING."
  (let ((displayed (or (plist-get accessory :displayed)
                       (if (member (plist-get accessory :type) '("delete" "reorder" "multiselect"))
                           "whenEditing" "always"))))
    (pcase displayed
      ("whenEditing" editing)
      ("whenNotEditing" (not editing))
      (_ t))))

(defun listd--cell-text (value)
  "A table cell VALUE as text."
  (cond ((null value) "") ((eq value t) "✓") ((eq value :json-false) "✗")
        ((stringp value) (listd--flat value)) ((floatp value) (format "%g" value))
        (t (format "%s" value))))

(defun listd--cell (row column)
  "ROW's cell for COLUMN (a plist with :id)."
  (plist-get (plist-get row :cells) (intern (concat ":" (plist-get column :id)))))

(defun listd--text-width ()
  "The columns a row may use: the narrowest window of the buffer, less the mark.
One layout serves every window, so it fits the narrowest: splitting
a window side by side makes two of unequal width."
  (- (apply #'min (or (mapcar #'window-body-width (get-buffer-window-list nil nil t))
                      (list (frame-width))))
     3))

(defun listd--column-widths (columns window &optional room)
  "Widths of COLUMNS for the rows of WINDOW (`listd-mirror-window').
The columns get the width of their widest cell when all fit in
ROOM (by default the window's width); otherwise the widest are cut
to `listd-column-width-limit' and share what room is left.  A
column's `width' is a hint (the spec): it has that width, and what
room is left widens it to its widest cell."
  (let* ((columns (append columns nil))
         (room (or room (listd--text-width)))
         ;; A title is never cut, nor the sort's arrow after it ("CPU % ▲").
         (titles (mapcar (lambda (column)
                           (+ (string-width (or (plist-get column :title) ""))
                              (if (and listd--sort (equal (car listd--sort) (plist-get column :id))) 2 0)))
                         columns))
         (fixed (cl-mapcar (lambda (column title)
                             (and (plist-get column :width)
                                  (max 1 title (round (plist-get column :width)))))
                           columns titles))
         (widest (cl-mapcar
                  (lambda (column title)
                    (let ((width title))
                      (dolist (entry window)
                        (dolist (row (nth 3 entry))
                          (setq width (max width (string-width (listd--cell-text (listd--cell (cdr row) column)))))))
                      width))
                  columns titles))
         (natural (cl-mapcar (lambda (fixed widest) (or fixed widest)) fixed widest))
         (room (- room (* 2 (max 0 (1- (length columns)))))))
    (if (<= (apply #'+ natural) room)
        ;; Room to spare goes to the hinted columns their cells overflow.
        (let ((left (- room (apply #'+ natural))))
          (cl-mapcar (lambda (width widest)
                       (let ((more (max 0 (min left (- widest width)))))
                         (setq left (- left more))
                         (+ width more)))
                     natural widest))
      (let* ((cut (cl-mapcar (lambda (width fixed title)
                               (if fixed width (max title (min width listd-column-width-limit))))
                             natural fixed titles))
             (left (- room (apply #'+ cut))))
        ;; What room is left goes to the cut columns, first come first served.
        (cl-mapcar (lambda (width wanted)
                     (let ((more (max 0 (min left (- wanted width)))))
                       (setq left (- left more))
                       (+ width more)))
                   cut natural)))))

(defun listd--pad (text width alignment)
  "Cut or pad TEXT to WIDTH as ALIGNMENT asks."
  (let* ((text (truncate-string-to-width text width nil nil "…"))
         (room (- width (string-width text))))
    (pcase alignment
      ("trailing" (concat (make-string room ?\s) text))
      ("center" (concat (make-string (/ room 2) ?\s) text (make-string (- room (/ room 2)) ?\s)))
      (_ (concat text (make-string room ?\s))))))

(defun listd--row-line (row selected editing columns widths)
  "The line of ROW; SELECTED, EDITING, COLUMNS and WIDTHS as rendered."
  (let* ((level (or (plist-get row :level) 0))
         (accessories (seq-filter (lambda (a) (listd--shown-p a editing))
                                  (listd-ordered-accessories (append (plist-get row :accessories) nil))))
         (leading (seq-filter (lambda (a) (= 0 (car (listd--accessory-rank a)))) accessories))
         (trailing (seq-remove (lambda (a) (= 0 (car (listd--accessory-rank a)))) accessories))
         (parts (delq nil (mapcar (lambda (a) (listd--accessory-text a selected)) leading)))
         (mark (if selected (propertize "● " 'face 'listd-mark) "  "))
         (body
          (if columns
              (mapconcat #'identity
                         (cl-mapcar (lambda (column width)
                                      (listd--pad (listd--cell-text (listd--cell row column)) width
                                                  (plist-get column :alignment)))
                                    (append columns nil) widths)
                         "  ")
            (concat
             (make-string (* 2 level) ?\s)
             (cond ((eq (plist-get row :hasChildren) t)
                    (propertize (if (eq (plist-get row :expanded) t) "▾ " "▸ ") 'face 'listd-disclosure))
                   ((> level 0) "  ")
                   (t ""))
             (if parts (concat (string-join parts " ") " ") "")
             (listd--flat (or (plist-get row :text) (concat "#" (plist-get row :id))))
             (if (plist-get row :secondaryText)
                 (concat "  " (propertize (listd--flat (plist-get row :secondaryText)) 'face 'listd-secondary))
               ""))))
         (after (delq nil (mapcar (lambda (a) (listd--accessory-text a selected)) trailing)))
         (line (concat mark body (if after (concat "  " (string-join after " ")) ""))))
    (when selected (add-face-text-property 0 (length line) 'listd-selected t line))
    (propertize line 'listd-item (plist-get row :id) 'listd-row row)))

(defun listd--cached-row-line (row selected editing columns widths)
  "`listd--row-line' of ROW, SELECTED, EDITING, COLUMNS, WIDTHS, drawn once.
Rows are values: a change replaces the rows it touches, so a row
object that is still held draws as it drew before."
  (unless listd--lines
    (setq listd--lines (make-hash-table :test #'eq :weakness 'key)))
  (let ((key (list (and selected t) editing columns widths))
        (cached (gethash row listd--lines)))
    (if (and cached (equal (car cached) key))
        (cdr cached)
      (let ((line (listd--row-line row selected editing columns widths)))
        (puthash row (cons key line) listd--lines)
        line))))

(defun listd--title-line ()
  "The first line: the list's title, version and window."
  (let* ((mirror listd--mirror)
         (title (or (and listd--source listd--source-title)
                    (plist-get listd--info :title) listd--list))
         (total (and mirror (listd-mirror-total-rows mirror))))
    (concat
     (propertize (format "%s" title) 'face 'listd-title)
     (cond
      (listd--at-version
       (format "  at version %d (read-only%s)" listd--at-version
               (if listd--now-version (format "; the list was at version %s when shown" listd--now-version) "")))
      (mirror (format "  v%d · %d row%s" (listd-mirror-version mirror) total (if (= total 1) "" "s")))
      (t ""))
     (if listd--source
         (format " · view of %s%s%s" listd--source
                 (if (plist-get listd--view :filter)
                     (format " filtered by %S" (plist-get (plist-get listd--view :filter) :query)) "")
                 (if listd--sort (format " sorted by %s %s" (listd--field-title (car listd--sort))
                                         (if (cdr listd--sort) "▼" "▲"))
                   ""))
       ""))))

(defun listd--field-title (field)
  "The title of the column FIELD names, or FIELD."
  (or (plist-get (seq-find (lambda (c) (equal (plist-get c :id) field))
                           (and listd--mirror (listd-mirror-columns listd--mirror)))
                 :title)
      field))

(defun listd--insert-empty-state (empty)
  "Insert the empty state EMPTY (or a plain note)."
  (let ((title (or (plist-get empty :title)
                   (and (equal (plist-get empty :kind) "search")
                        (format "No Results for “%s”" (plist-get empty :query)))
                   "No items"))
        (description (plist-get empty :description)))
    (insert "\n" (propertize (concat "    " title) 'face 'listd-title) "\n")
    (when description (insert (propertize (concat "    " description) 'face 'listd-empty) "\n"))))

(defun listd--render ()
  "Draw the buffer from its mirror, keeping point on its item."
  (let* ((inhibit-read-only t)
         (item (get-text-property (line-beginning-position) 'listd-item))
         (parent (plist-get (get-text-property (line-beginning-position) 'listd-row) :parent))
         (line (line-number-at-pos))
         (neighbours (and item (listd--neighbours)))
         (column (current-column))
         (windows (mapcar (lambda (w) (list w (get-text-property
                                               (with-selected-window w (line-beginning-position))
                                               'listd-item)
                                            (with-selected-window w
                                              (count-screen-lines (window-start) (line-beginning-position)))))
                          (get-buffer-window-list nil nil t)))
         (mirror listd--mirror))
    (erase-buffer)
    (insert (listd--title-line) "\n")
    (when (and listd--stale mirror (not listd--state))
      (insert (propertize (substitute-command-keys
                           (format "  %s: the rows below are as they were; \\[revert-buffer] reconnects."
                                   (listd--sentence listd--stale)))
                          'face 'listd-stale)
              "\n"))
    (cond
     ((or listd--state (null mirror))
      (insert "\n" (propertize (concat "    " (substitute-command-keys (or listd--state "")))
                               'face 'listd-empty) "\n")
      (setq header-line-format nil))
     (t
      (let* ((window (listd-mirror-window mirror))
             (columns (listd-mirror-columns mirror))
             (columns (and (> (length columns) 0) columns))
             (widths (and columns (listd--column-widths columns window)))
             (editing (listd-mirror-editing mirror))
             (offset (listd-mirror-offset mirror))
             (total (listd-mirror-total-rows mirror)))
        (setq header-line-format
              (when columns
                (concat (propertize " " 'display '(space :align-to 0)) "  "
                        (mapconcat #'identity
                                   (cl-mapcar (lambda (c w)
                                                (propertize
                                                 ;; `header-line-format' reads % as a construct.
                                                 (string-replace
                                                  "%" "%%"
                                                  (listd--pad (concat (or (plist-get c :title) "")
                                                                      (cond ((not (equal (car listd--sort) (plist-get c :id))) "")
                                                                            ((cdr listd--sort) " ▼")
                                                                            (t " ▲")))
                                                              w (plist-get c :alignment)))
                                                 'face 'listd-column-header))
                                              (append columns nil) widths)
                                   "  "))))
        (when (> offset 0)
          (insert (propertize (format "  ↑ %d more row%s\n" offset (if (= offset 1) "" "s"))
                              'face 'listd-empty 'listd-more 'up)))
        (if (= total 0)
            (listd--insert-empty-state (listd-mirror-empty-state mirror))
          (dolist (entry window)
            (let* ((section (nth 1 entry))
                   (mode (listd-mirror-section-header-mode section))
                   (header (listd-mirror-section-header section)))
              (when (and (null mode) (<= offset (nth 2 entry))
                         ;; A view's one section, items, has no header to show.
                         (or header (not listd--source)))
                (insert (propertize (if header (listd--flat header) (listd-mirror-section-id section))
                                    'face (if header 'listd-section-header 'listd-section-id)
                                    'listd-section (listd-mirror-section-id section))
                        "\n"))
              (dolist (row (nth 3 entry))
                (insert (listd--cached-row-line (cdr row) (listd-mirror-selected-p mirror (plist-get (cdr row) :id))
                                                editing columns widths)
                        "\n"))
              (when (and (listd-mirror-section-footer section)
                         (<= (+ (nth 2 entry) (listd-mirror-section-count section))
                             (+ offset (or (listd-mirror-limit mirror) total))))
                (insert (propertize (concat "  " (listd--flat (listd-mirror-section-footer section)))
                                    'face 'listd-footer)
                        "\n")))))
        (let ((below (- total offset (or (listd-mirror-limit mirror) total))))
          (when (> below 0)
            (insert (propertize (format "  ↓ %d more row%s\n" below (if (= below 1) "" "s"))
                                'face 'listd-empty 'listd-more 'down)))))))
    ;; Point, and each window's view, back on their items.
    ;; Its item gone: the parent if it was collapsed, else the next item, else
    ;; the previous one.
    (goto-char (or (and item (listd--item-position item))
                   (let ((position (and parent (listd--item-position parent))))
                     (and position
                          (not (eq t (plist-get (get-text-property position 'listd-row) :expanded)))
                          position))
                   (seq-some #'listd--item-position (car neighbours))
                   (seq-some #'listd--item-position (cdr neighbours))
                   (and parent (listd--item-position parent))
                   (progn (goto-char (point-min)) (forward-line (1- line)) (point))))
    (move-to-column column)
    (unless (or noninteractive (equal item (get-text-property (point) 'listd-item))
                (not (eq (window-buffer) (current-buffer))))
      ;; Point is on another item now: eldoc would go on showing the gone one.
      (when (bound-and-true-p eldoc-mode)
        (let ((details (listd--eldoc)))
          (when details (let ((message-log-max nil)) (message "%s" details))))))
    (dolist (entry windows)
      (let ((position (and (nth 1 entry) (listd--item-position (nth 1 entry)))))
        (when position
          (set-window-point (car entry) position)
          ;; The item stays on its screen line, unless the whole buffer fits: then all of it shows.
          (set-window-start (car entry)
                            (if (< (count-lines (point-min) (point-max))
                                   (window-body-height (car entry)))
                                (point-min)
                              (save-excursion (goto-char position)
                                              (forward-line (- (nth 2 entry))) (point)))
                            t))))
    (set-buffer-modified-p nil)))

(defun listd--neighbours ()
  "The ids of the items after point and before it: (AFTER . BEFORE), nearest first.
AFTER holds those of point's section; BEFORE those of its section,
then the items of the sections before it and, last, after it: the
only item of a section gone, point goes to the previous item, not
to a header."
  (cl-flet ((ids (step across)
              (save-excursion
                (let (ids)
                  ;; Within the section: past its last item, the previous one.
                  (while (and (< (length ids) 20) (= 0 (forward-line step))
                              (not (and (> step 0) (eobp)))
                              (or across (not (get-text-property (point) 'listd-section))))
                    (let ((id (get-text-property (point) 'listd-item)))
                      (when id (push id ids))))
                  (nreverse ids)))))
    (cons (ids 1 nil) (append (ids -1 nil) (ids -1 t) (ids 1 t)))))

(defun listd--item-position (id)
  "The start of the line of item ID, or nil."
  (save-excursion
    (goto-char (point-min))
    (let ((match (text-property-search-forward 'listd-item id t)))
      (and match (prop-match-beginning match)))))

;;; The item at point

(defun listd--row-at-point ()
  "The row at point, or nil."
  (get-text-property (line-beginning-position) 'listd-row))

(defun listd--item-at-point ()
  "The id of the item at point; a `user-error' when there is none."
  (or (get-text-property (line-beginning-position) 'listd-item)
      (user-error "No item on this line")))

(defun listd--edit-list ()
  "The list to send events and edits to, the current one."
  (or listd--list (user-error "Not a listd buffer")))

(defun listd--writable ()
  "Refuse in a read-only version buffer."
  (when listd--at-version
    (user-error "This buffer shows version %d, read-only" listd--at-version)))

(defun listd-next-item (&optional n)
  "Move to the Nth next item."
  (interactive "p")
  (let ((step (if (< (or n 1) 0) -1 1)) (start (point)))
    (cl-loop repeat (abs (or n 1))
             do (let ((from (point)))
                  (forward-line step)
                  (while (and (not (eobp)) (not (bobp))
                              (not (get-text-property (point) 'listd-item))
                              (not (get-text-property (point) 'listd-more)))
                    (forward-line step))
                  ;; Past the last item or the first: stay where the last one was.
                  (unless (or (get-text-property (point) 'listd-item)
                              (get-text-property (point) 'listd-more))
                    (goto-char from)))
             until (get-text-property (line-beginning-position) 'listd-more))
    (when (and (= (point) start) (/= 0 (or n 1)) (called-interactively-p 'interactive))
      (message "No more items"))))

(defun listd-previous-item (&optional n)
  "Move to the Nth previous item."
  (interactive "p")
  (listd-next-item (- (or n 1))))

;;; The window follows point

(defun listd--move-window (offset after)
  "Move the buffer's window to OFFSET, then call AFTER."
  (let ((buffer (current-buffer))
        (offset (max 0 offset)))
    (setq listd--after-window after)
    (listd-request "list/setWindow"
                   (list :list listd--list :offset offset :limit listd-window-rows)
                   :then (lambda (answer)
                           (when (buffer-live-p buffer)
                             (with-current-buffer buffer
                               (listd--adopt-window answer offset)))))))

(defun listd--follow-point ()
  "Move the window when point reaches a \"more rows\" line."
  (let ((more (get-text-property (line-beginning-position) 'listd-more))
        (mirror listd--mirror))
    (when (and more mirror (not listd--after-window) (not listd--at-version))
      (let* ((offset (listd-mirror-offset mirror))
             (step (/ listd-window-rows 2))
             (anchor (save-excursion
                       (listd-next-item (if (eq more 'up) 1 -1))
                       (get-text-property (point) 'listd-item))))
        (listd--move-window (if (eq more 'up) (- offset step) (+ offset step))
                            (lambda ()
                              (when-let ((position (and anchor (listd--item-position anchor))))
                                (goto-char position)
                                (listd-next-item (if (eq more 'up) -1 1)))))))))

(defun listd-scroll-up (&optional arg)
  "Scroll up ARG lines or a screen.
At the end of the rows held, move the window on."
  (interactive "^P")
  (condition-case nil
      (scroll-up-command arg)
    (end-of-buffer
     (goto-char (point-max))
     (forward-line -1)
     (if (get-text-property (point) 'listd-more)
         (listd--follow-point)
       (user-error "End of the list")))))

(defun listd-scroll-down (&optional arg)
  "Scroll down ARG lines or a screen.
At the start of the rows held, move the window back."
  (interactive "^P")
  (condition-case nil
      (scroll-down-command arg)
    (beginning-of-buffer
     (goto-char (point-min))
     (forward-line 1)
     (if (get-text-property (point) 'listd-more)
         (listd--follow-point)
       (user-error "Beginning of the list")))))

(defun listd-first-row ()
  "Move to the list's first row (moving the window there)."
  (interactive)
  (if (and listd--mirror (> (listd-mirror-offset listd--mirror) 0))
      (listd--move-window 0 (lambda () (goto-char (point-min)) (listd-next-item 1)))
    (goto-char (point-min))
    (listd-next-item 1)))

(defun listd-last-row ()
  "Move to the list's last row (moving the window there)."
  (interactive)
  (let* ((mirror listd--mirror)
         (total (if mirror (listd-mirror-total-rows mirror) 0))
         (last (max 0 (- total listd-window-rows))))
    (if (and mirror (< (listd-mirror-offset mirror) last))
        (listd--move-window last (lambda () (goto-char (point-max)) (listd-next-item -1)
                                   (listd--recenter-bottom)))
      (goto-char (point-max))
      (listd-next-item -1)
      (listd--recenter-bottom))))

(defun listd--recenter-bottom ()
  "Put point on the bottom line of the selected window, if that is this buffer's."
  (when (eq (window-buffer) (current-buffer))
    (recenter -1)))

;;; Acting on the list

(defun listd--event (method params &optional done)
  "Send the user event METHOD with PARAMS; DONE is shown when answered.
A refusal is said in plain words, naming the list as the buffer shows it."
  (let ((name (listd--shown-name)))
    (listd-request method params
                   :then (lambda (_) (when done (message "listd: %s" done)))
                   :else (lambda (error) (message "listd: %s" (listd--plain-error error name))))))

(defun listd--owned ()
  "Refuse with a `user-error' when nobody owns the list.
No one would receive a user event."
  (when (and listd--info (plist-member listd--info :owner) (null (plist-get listd--info :owner)))
    (user-error "Nobody owns %s, so no one would receive that" (listd--shown-name))))

(defun listd-activate ()
  "The primary action: open or close an outline item, else select it."
  (interactive)
  (listd--writable)
  (let ((row (listd--row-at-point)))
    (cond
     ((get-text-property (line-beginning-position) 'listd-more) (listd--follow-point))
     ((null row) (user-error "No item on this line"))
     ((eq (plist-get row :hasChildren) t) (listd-toggle-expansion))
     ((listd-mirror-selected-p listd--mirror (plist-get row :id))
      (listd--event "event/deselect" (list :list (listd--edit-list) :item (plist-get row :id))))
     (t (listd--event "event/select" (list :list (listd--edit-list) :item (plist-get row :id)))))))

(defun listd-toggle-expansion (&optional recursive)
  "Expand or collapse the outline item at point (RECURSIVE: its subtree too)."
  (interactive "P")
  (listd--writable)
  (let* ((row (listd--row-at-point))
         (item (listd--item-at-point))
         (target (if (or (eq (plist-get row :hasChildren) t) (null (plist-get row :parent)))
                     item (plist-get row :parent))))
    (unless (or (eq (plist-get row :hasChildren) t) (plist-get row :parent))
      (user-error "%s has no children" item))
    (listd-request (if (and (equal target item) (not (eq (plist-get row :expanded) t)))
                       "outline/expand" "outline/collapse")
                   (append (list :list (listd-source-list) :item target)
                           (and recursive (list :recursive t))))))

(defun listd-toggle-expansion-recursively ()
  "Expand or collapse the outline item at point and everything under it."
  (interactive)
  (listd-toggle-expansion t))

(defun listd-source-list ()
  "The list edits go to: the source of a view, else the buffer's list."
  (or listd--source (listd--edit-list)))

(defun listd--actions-of (row)
  "ROW's swipe and context-menu actions as (LABEL . ID), submenus flattened."
  (let (result)
    (cl-labels ((walk (actions prefix)
                  (seq-doseq (action actions)
                    (let ((label (concat prefix (or (plist-get action :title) (plist-get action :id)))))
                      (cond ((plist-get action :children) (walk (plist-get action :children) (concat label " › ")))
                            ((eq (plist-get action :disabled) t) nil)
                            ;; The same action may be offered as a swipe and in the menu: once.
                            ((rassoc (plist-get action :id) result) nil)
                            (t (push (cons (if (equal (plist-get action :style) "destructive")
                                               (concat label " (destructive)") label)
                                           (plist-get action :id))
                                     result)))))))
      (walk (plist-get row :leadingSwipeActions) "")
      (walk (plist-get row :trailingSwipeActions) "")
      (walk (plist-get row :contextMenuActions) "")
      (seq-doseq (accessory (plist-get row :accessories))
        (when (equal (plist-get accessory :type) "popUpMenu")
          (walk (plist-get accessory :actions) ""))))
    (nreverse result)))

(defun listd-actions (action)
  "Trigger ACTION of the item at point (swipe or context-menu actions).
Interactively, choose it with `completing-read'."
  (interactive
   (let* ((row (or (listd--row-at-point) (user-error "No item on this line")))
          (actions (or (listd--actions-of row)
                       (user-error "%s has no actions" (plist-get row :id)))))
     (listd--writable)
     (list (cdr (assoc (completing-read "Action: " actions nil t) actions)))))
  (let ((item (listd--item-at-point)))
    (listd--event "event/action" (list :list (listd--edit-list) :item item :action action)
                  (format "%s sent to the owner of %s" action (listd--shown-name)))))

(defun listd-toggle-switch ()
  "Flip the toggle accessory of the item at point."
  (interactive)
  (listd--writable)
  (let* ((row (listd--row-at-point))
         (toggle (seq-find (lambda (a) (equal (plist-get a :type) "toggle"))
                           (plist-get row :accessories))))
    (unless toggle (user-error "No toggle on this line"))
    (listd--event "event/toggle" (list :list (listd--edit-list) :item (plist-get row :id)
                                       :isOn (if (eq (plist-get toggle :isOn) t) :json-false t)))))

(defun listd-delete ()
  "Ask the owner to delete the item at point, if deleting it is allowed.
The owner allows it with a delete accessory or a destructive action."
  (interactive)
  (listd--writable)
  (let ((row (listd--row-at-point)))
    (unless row (user-error "No item on this line"))
    (unless (or (seq-find (lambda (a) (equal (plist-get a :type) "delete")) (plist-get row :accessories))
                (seq-find (lambda (a) (equal (plist-get a :style) "destructive"))
                          (plist-get row :trailingSwipeActions)))
      (listd--owned)
      (user-error "The owner does not allow deleting %s (no delete accessory)" (plist-get row :id)))
    (when (and listd-confirm-delete
               (not (y-or-n-p (format "Ask the owner to delete %s? "
                                      (or (plist-get row :text) (plist-get row :id))))))
      (user-error "Not deleted"))
    (listd--event "event/delete" (list :list (listd--edit-list) :item (plist-get row :id))
                  (format "asked the owner to delete %s" (plist-get row :id)))))

(defun listd--move (direction)
  "Ask the owner to move the item at point one row in DIRECTION (-1 or 1)."
  (listd--writable)
  (let* ((row (or (listd--row-at-point) (user-error "No item on this line")))
         (neighbour (save-excursion (listd-next-item direction)
                                    (get-text-property (line-beginning-position) 'listd-item))))
    (unless (eq (plist-get row :movable) t)
      (listd--owned)
      (user-error "The owner does not allow moving %s (not movable)" (plist-get row :id)))
    (unless neighbour (user-error "Nothing to move past"))
    (listd--event "event/move" (list :list (listd--edit-list) :item (plist-get row :id)
                                     (if (< direction 0) :before :after) neighbour))))

(defun listd-move-up ()
  "Ask the owner to move the item at point up."
  (interactive)
  (listd--move -1))

(defun listd-move-down ()
  "Ask the owner to move the item at point down."
  (interactive)
  (listd--move 1))

(defun listd--resubscribe ()
  "Fetch the buffer's rows again: subscribe anew, or make its view again."
  (let ((offset (if listd--mirror (listd-mirror-offset listd--mirror) 0)))
    (if listd--source
        (listd--make-view)
      (listd--subscribe offset))))

(defun listd--revert (&rest _)
  "Fetch the rows again and ask the list's owner to refresh it.
Reconnect first when disconnected."
  (cond
   (listd--at-version (listd-show-version listd--at-version))
   ((not (listd-connected-p)) (listd-ensure-connection))
   ((or (null listd--mirror) listd--stale listd--state) (listd--resubscribe))
   (t (let ((list (listd-source-list)) (name (listd--shown-name)) (buffer (current-buffer)))
        (listd-request "event/refresh" (list :list list)
                       :then (lambda (_) (message "listd: %s refreshed by its owner" name))
                       :else (lambda (error)
                               (message "listd: %s" (listd--plain-error error name))
                               (when (buffer-live-p buffer)
                                 (with-current-buffer buffer (listd--resubscribe)))))))))

;;; The inspector

(defun listd-explain ()
  "Say why the item at point last changed, in listd's shared wording."
  (interactive)
  (let ((item (listd--item-at-point)) (list (listd--edit-list)))
    (listd-request "list/explain" (list :list list :item item)
                   :then (lambda (answer)
                           (let ((lines (listd-words-explain answer "row")))
                             (with-current-buffer (get-buffer-create "*listd explain*")
                               (let ((inhibit-read-only t))
                                 (erase-buffer)
                                 (insert (format "%s in %s\n" item list) (string-join lines "\n") "\n"))
                               (special-mode)
                               (display-buffer (current-buffer)))
                             (message "%s" (car lines)))))))

(defun listd--details (row)
  "One line about ROW: id, secondary text, accessories, actions, data."
  (string-join
   (delq nil
         (list (format "%s (%s)" (or (plist-get row :text) "") (plist-get row :id))
               (and listd--mirror (> (length (listd-mirror-columns listd--mirror)) 0)
                    (mapconcat (lambda (c) (format "%s: %s" (or (plist-get c :title) (plist-get c :id))
                                                   (listd--cell-text (listd--cell row c))))
                               (listd-mirror-columns listd--mirror) ", "))
               (and (plist-get row :secondaryText) (listd-words-quoted (plist-get row :secondaryText)))
               (and (plist-get row :accessories)
                    (concat "accessories: " (listd-words-accessories (plist-get row :accessories))))
               (and (listd--actions-of row)
                    (concat "actions: " (mapconcat #'car (listd--actions-of row) ", ")))
               (and (plist-member row :data) (concat "data: " (listd-words-compact (plist-get row :data))))
               (and (eq (plist-get row :movable) t) "movable")
               (and (eq (plist-get row :selectable) :json-false) "not selectable")))
   " · "))

(defun listd--eldoc (&rest _)
  "The details of the item at point, for `eldoc'."
  (let ((row (listd--row-at-point)))
    (and row (listd--details row))))

(defun listd-describe-item ()
  "Show the details of the item at point."
  (interactive)
  (message "%s" (listd--details (or (listd--row-at-point) (user-error "No item on this line")))))

(defun listd--version-range (list)
  "Return (OLDEST . CURRENT), the versions of LIST kept by the daemon.
Asked while a person waits at the prompt; any key stops waiting."
  (let* ((connection (listd-ensure-connection))
         (ask (lambda (method params)
                (jsonrpc-request connection method params
                                 :timeout listd-request-timeout :cancel-on-input t)))
         (info (funcall ask 'list/info (list :list list)))
         (current (or (plist-get info :version) (plist-get (plist-get info :info) :version) 0))
         (oldest (condition-case err
                     (progn (funcall ask 'query/sections (list :list list :atVersion 0)) 0)
                   (jsonrpc-error
                    (or (plist-get (alist-get 'jsonrpc-error-data (cdr err)) :oldestVersion)
                        current)))))
    (cons oldest current)))

;;;###autoload
(defun listd-show-version (version)
  "Show the list of this buffer as it was at VERSION, read-only.
Interactively, the default is the version before the current one,
and the prompt says which versions the daemon keeps."
  (interactive
   (let ((range (listd--version-range (listd-source-list))))
     (list (read-number (format "Show version (%d–%d kept): " (car range) (cdr range))
                        (max (car range) (1- (cdr range)))))))
  ;; A view is not journaled: its source's history is the one to show.
  (let* ((list (listd-source-list))
         (info (if listd--source (list :title listd--source-title) listd--info))
         (now (if listd--source listd--now-version
                (or listd--now-version (and listd--mirror (listd-mirror-version listd--mirror)))))
         (offset (if (and listd--mirror (not listd--source)) (listd-mirror-offset listd--mirror) 0))
         (buffer (get-buffer-create (format "*listd %s at v%d*" list version))))
    (listd-request
     "query/sections" (list :list list :atVersion version)
     :then
     (lambda (sections)
       (listd-request
        "query/window" (list :list list :offset offset :limit listd-window-rows :atVersion version)
        :then
        (lambda (window)
          (with-current-buffer buffer
            (unless (derived-mode-p 'listd-mode) (listd-mode))
            (setq listd--list list listd--info info listd--at-version version listd--now-version now
                  listd--state nil
                  listd--mirror (listd-mirror-from-window
                                 list version
                                 (list :sections (plist-get sections :sections) :window window
                                       :selection [])
                                 offset listd-window-rows))
            (listd--render))
          (pop-to-buffer buffer)))))))

;;; Views: filter and sort

(defun listd--make-view ()
  "Create this buffer's view of `listd--source' and show it."
  (let ((buffer (current-buffer))
        (item (get-text-property (line-beginning-position) 'listd-item))
        (view (format "%s·emacs-%d" listd--source (cl-incf listd--view-counter))))
    (setq listd--pending-view view)
    (listd-request "view/create" (append (list :view view :source listd--source) listd--view)
                   :then (lambda (_)
                           (if (not (and (buffer-live-p buffer)
                                         (equal view (buffer-local-value 'listd--pending-view buffer))))
                               ;; The buffer went back to its list meanwhile.
                               (listd-request "list/dispose" (list :list view) :else #'ignore)
                             (with-current-buffer buffer
                               (setq listd--pending-view nil)
                               (remhash listd--list listd--subscribers)
                               (remhash listd--source listd--subscribers)
                               (setq listd--list view listd--mirror nil)
                               ;; Point goes back to its item once the view's rows are shown.
                               (setq listd--after-window
                                     (lambda ()
                                       (when-let ((position (and item (listd--item-position item))))
                                         (goto-char position))))
                               (listd--subscribe 0))))
                   :else (lambda (error)
                           (when (and (buffer-live-p buffer)
                                      (equal view (buffer-local-value 'listd--pending-view buffer)))
                             (with-current-buffer buffer
                               (setq listd--pending-view nil)
                               ;; The source is gone (a restart): wait for its didCreate.
                               (puthash listd--source (listd--subscriber buffer) listd--subscribers)
                               (setq listd--mirror nil listd--stale nil
                                     listd--state
                                     (if (eql (plist-get error :code) -32010)
                                         (format "No list %s (yet): the view comes back when it is created."
                                                 listd--source)
                                       (format "Cannot make the view: %s" (listd--error-message error))))
                               (listd--render)))))))

(defun listd--drop-view ()
  "Show the plain list again: dispose this buffer's view, subscribe to its source."
  (let ((view listd--list) (source listd--source))
    (remhash view listd--subscribers)
    (when (and (listd-connected-p) (not (equal view source)))
      (listd-request "list/unsubscribe" (list :list view) :else #'ignore)
      (listd-request "list/dispose" (list :list view) :else #'ignore))
    (setq listd--list source listd--source nil listd--view nil listd--sort nil
          listd--pending-view nil
          listd--source-title nil listd--mirror nil listd--stale nil
          listd--state "Subscribing…")
    (listd--render)
    (listd--subscribe 0)))

(defun listd--update-view (members)
  "Set MEMBERS (a plist) of this buffer's view, creating it the first time."
  (listd--writable)
  (cl-loop for (key value) on members by #'cddr
           do (setq listd--view (plist-put listd--view key value)))
  (cond
   ;; No filter and no sort left: the plain list, with its sections and outline.
   ((and (null (plist-get listd--view :filter)) (null (plist-get listd--view :sort)))
    (setq listd--view nil listd--sort nil)
    (if listd--source (listd--drop-view) (listd--render)))
   (listd--source
    (listd--render)                     ; the title says the new filter and sort now
    (let ((name (listd--shown-name)))
      (listd-request "view/update" (append (list :view listd--list) members)
                     :else (lambda (error) (message "listd: %s" (listd--plain-error error name))))))
   (t
    (when (and listd--mirror
               (seq-some (lambda (entry) (seq-some (lambda (row) (or (> (or (plist-get (cdr row) :level) 0) 0)
                                                                     (eq t (plist-get (cdr row) :hasChildren))))
                                                   (nth 3 entry)))
                         (listd-mirror-window listd--mirror)))
      (message "listd: a filtered or sorted view shows the outline flat; %s shows it again"
               (substitute-command-keys "\\[listd-open]")))
    (let ((old listd--list))
      (listd-request "list/unsubscribe" (list :list old) :else #'ignore)
      (remhash old listd--subscribers)
      (setq listd--source old
            listd--source-title (plist-get listd--info :title))
      (listd--render)
      (listd--make-view)))))

(defun listd-filter (text)
  "Show only the rows whose texts contain TEXT (a live view).
An empty TEXT removes the filter."
  (interactive (list (read-string "Filter (empty: none): ")))
  (listd--update-view (list :filter (if (string-empty-p text) nil (list :query text)))))

(defun listd--field (name)
  "The view field NAME means: a column's id (by id or title), or a built-in field."
  (let ((columns (and listd--mirror (append (listd-mirror-columns listd--mirror) nil))))
    (or (plist-get (seq-find (lambda (c) (equal (plist-get c :id) name)) columns) :id)
        (plist-get (seq-find (lambda (c) (eq t (compare-strings (or (plist-get c :title) "") nil nil name nil nil t)))
                             columns)
                   :id)
        (and (or (member name '("text" "secondaryText" "id" "image")) (string-prefix-p "data." name)) name)
        (user-error "No field or column %s" name))))

(defun listd--column-at-point ()
  "The title of the table column at point, or nil."
  (when-let* ((mirror listd--mirror)
              (columns (append (listd-mirror-columns mirror) nil))
              (widths (listd--column-widths columns (listd-mirror-window mirror))))
    (let ((column (- (current-column) 2)) (start 0) found)
      (cl-loop for c in columns for w in widths
               until found
               do (when (< column (+ start w 2)) (setq found (plist-get c :title)))
               (setq start (+ start w 2)))
      found)))

(defun listd--sort-choices ()
  "Return the fields for `listd-sort' to offer: sortable columns, else texts.
A column is offered only when its `sortable' is true (the spec:
whether a viewer may offer sorting by it); \"none\" when sorted."
  (let ((sortable (and listd--mirror
                       (seq-filter (lambda (c) (eq t (plist-get c :sortable)))
                                   (append (listd-mirror-columns listd--mirror) nil)))))
    (append (if sortable
                (mapcar (lambda (c) (or (plist-get c :title) (plist-get c :id))) sortable)
              '("text" "secondaryText"))
            (and listd--sort '("none")))))

(defun listd-sort (field &optional descending)
  "Sort the rows by FIELD (a column or text), DESCENDING with a prefix argument.
Sorting again by the same field turns the order around; FIELD
\"none\" removes the sort."
  (interactive
   (let* ((choices (listd--sort-choices))
          (at-point (listd--column-at-point))
          (default (if (member at-point choices) at-point (car choices))))
     (list (completing-read (format-prompt "Sort by" default) choices nil nil nil nil default)
           current-prefix-arg)))
  (if (equal field "none")
      (progn (setq listd--sort nil)
             (listd--update-view (list :sort nil)))
    (let* ((id (listd--field field))
           (descending (or descending (and listd--sort (equal (car listd--sort) id) (not (cdr listd--sort))))))
      (setq listd--sort (cons id descending))
      (listd--update-view (list :sort (vector (list :field id :descending (if descending t :json-false))))))))

;;; imenu

(defun listd--imenu-index ()
  "The sections of the buffer, for `imenu'."
  (let (index)
    (save-excursion
      (goto-char (point-min))
      (while (not (eobp))
        (when (get-text-property (point) 'listd-section)
          (push (cons (buffer-substring-no-properties (point) (line-end-position)) (point)) index))
        (forward-line 1)))
    (nreverse index)))

;;; Every list

(defvar listd-lists-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map (kbd "RET") #'listd-lists-open)
    map)
  "Keys of the `listd-lists' buffer.")

(define-derived-mode listd-lists-mode tabulated-list-mode "listd lists"
  "Every list of the listd daemon; \\[listd-lists-open] opens the one at point.

\\{listd-lists-mode-map}"
  (setq tabulated-list-format [("List" 24 t) ("Title" 24 t) ("Rows" 8 t :right-align t)
                               ("Version" 8 t :right-align t) ("Owner" 16 t)])
  (setq-local revert-buffer-function #'listd--lists-revert)
  (tabulated-list-init-header))

(defun listd--others-lists (infos)
  "INFOS without the views this Emacs made for its sorted or filtered buffers."
  (let ((own (delq nil (mapcar (lambda (buffer)
                                 (with-current-buffer buffer
                                   (and (derived-mode-p 'listd-mode) listd--source listd--list)))
                               (buffer-list)))))
    (seq-remove (lambda (info) (member (plist-get info :list) own)) infos)))

(defun listd--lists-revert (&rest _)
  "Fetch every list again."
  (let ((buffer (current-buffer)))
    (listd-request "list/all" nil
                   :then (lambda (answer)
                           (when (buffer-live-p buffer)
                             (with-current-buffer buffer
                               (setq tabulated-list-entries
                                     (mapcar (lambda (info)
                                               (let ((owner (plist-get info :owner)))
                                                 (list (plist-get info :list)
                                                       (vector (plist-get info :list)
                                                               (or (plist-get info :title) "")
                                                               (number-to-string (plist-get info :rows))
                                                               (number-to-string (plist-get info :version))
                                                               (cond ((null owner) "none")
                                                                     ((plist-get owner :name))
                                                                     (t (format "session %s" (plist-get owner :session))))))))
                                             (listd--others-lists (plist-get answer :lists))))
                               (tabulated-list-print t)))))))

;;;###autoload
(defun listd-lists ()
  "Show every list of the daemon; RET opens one."
  (interactive)
  (let ((buffer (get-buffer-create "*listd lists*")))
    (with-current-buffer buffer
      (listd-lists-mode)
      (listd--lists-revert))
    (pop-to-buffer-same-window buffer)))

(defun listd-lists-open ()
  "Open the list at point."
  (interactive)
  (listd-open (or (tabulated-list-get-id) (user-error "No list on this line"))))

(provide 'listd)
;;; listd.el ends here

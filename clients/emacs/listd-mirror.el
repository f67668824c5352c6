;;; listd-mirror.el --- The one changeset decoder of the listd package  -*- lexical-binding: t; -*-

;; Copyright (C) 2026 The listd authors

;; Author: The listd authors
;; URL: https://github.com/listd/listd
;; Keywords: tools

;; This file is not part of GNU Emacs.

;;; Commentary:

;; A client-side copy of one listd list, kept current by `list/didChange'
;; notifications (Protocol/README.md, sections 4 and "Windowed
;; subscriptions").  There is one decoder: a mirror knows, per section,
;; its row count and the rows it holds by row index.  A windowed mirror
;; drops the rows outside its window after every change; a full mirror is
;; a windowed one with no bound (its limit is nil) and so holds every row.
;; Wire values are as `jsonrpc' reads them: objects are plists, arrays are
;; vectors, null is nil and false is `:json-false'.

;;; Code:

(require 'cl-lib)
(require 'seq)
(require 'subr-x)

(define-error 'listd-mismatch "listd: a changeset that does not fit the mirror")

(cl-defstruct (listd-mirror (:constructor listd-mirror--make))
  "A copy of a list: sections with row counts and the rows held."
  list version sections selection offset limit
  columns empty-state editing selection-mode)

(cl-defstruct (listd-mirror-section (:constructor listd-mirror-section--make))
  "One section of a mirror: ROWS maps a row index to its row."
  id header footer kind header-mode (count 0) (rows (make-hash-table)))

(defvar listd-mirror--visits 0
  "The number of held rows the decoder visited, for tests of its cost.")

(defun listd-mirror--run-at (spans index)
  "Return the last of SPANS starting at or before INDEX, or nil.
SPANS is a vector of vectors sorted on their first element."
  (let ((low 0) (high (length spans)))
    (while (< low high)
      (let ((middle (/ (+ low high) 2)))
        (if (<= (aref (aref spans middle) 0) index)
            (setq low (1+ middle))
          (setq high middle))))
    (and (> low 0) (aref spans (1- low)))))

(defun listd-mirror--fail (format-string &rest args)
  "Signal `listd-mismatch' with FORMAT-STRING formatted with ARGS."
  (signal 'listd-mismatch (list (apply #'format format-string args))))

(defun listd-mirror--section (value)
  "A section of a mirror from the wire section VALUE.
VALUE carries its rows (a snapshot), or `rowCount' with the rows
of the window from `rowsAt', or `rows' as a count (a windowed
subscribe answer)."
  (let ((id (plist-get value :id))
        (rows (plist-get value :rows))
        (section (listd-mirror-section--make)))
    (unless (stringp id) (listd-mirror--fail "section without id: %S" value))
    (listd-mirror--set-section-attributes section value)
    (cond
     ((integerp rows) (setf (listd-mirror-section-count section) rows))
     ((vectorp rows)
      (let ((start (or (plist-get value :rowsAt) 0)))
        (setf (listd-mirror-section-count section)
              (or (plist-get value :rowCount) (length rows)))
        (listd-mirror--put-rows section start rows)))
     ((integerp (plist-get value :rowCount))
      (setf (listd-mirror-section-count section) (plist-get value :rowCount)))
     (t (listd-mirror--fail "section %s without rows" id)))
    section))

(defun listd-mirror--set-section-attributes (section value)
  "Set header, footer, kind and header mode of SECTION from VALUE."
  (setf (listd-mirror-section-id section) (plist-get value :id)
        (listd-mirror-section-header section) (plist-get value :header)
        (listd-mirror-section-footer section) (plist-get value :footer)
        (listd-mirror-section-kind section) (plist-get value :kind)
        (listd-mirror-section-header-mode section) (plist-get value :headerMode)))

(defun listd-mirror--put-rows (section start rows)
  "Hold ROWS (a vector) in SECTION from row index START."
  (let ((table (listd-mirror-section-rows section))
        (count (listd-mirror-section-count section)))
    (dotimes (k (length rows))
      (let ((row (aref rows k)))
        (unless (stringp (plist-get row :id))
          (listd-mirror--fail "row without id: %S" row))
        (unless (< -1 (+ start k) count)
          (listd-mirror--fail "row %d of section %s is out of range"
                              (+ start k) (listd-mirror-section-id section)))
        (puthash (+ start k) row table)))))

(defun listd-mirror--selection (ids)
  "A set (a hash table) of the ids of the vector IDS."
  (let ((set (make-hash-table :test #'equal)))
    (seq-doseq (id ids) (puthash id t set))
    set))

(defun listd-mirror-from-snapshot (list version snapshot)
  "A full mirror of LIST at VERSION from a wire SNAPSHOT."
  (let ((mirror (listd-mirror--make
                 :list list :version version
                 :sections (mapcar #'listd-mirror--section
                                   (plist-get snapshot :sections))
                 :selection (listd-mirror--selection
                             (plist-get snapshot :selection))
                 :offset 0 :limit nil)))
    (listd-mirror--set-attributes mirror snapshot)
    mirror))

(defun listd-mirror-from-window (list version answer offset limit)
  "A mirror of LIST at VERSION windowed on OFFSET and LIMIT.
ANSWER is a `list/subscribe' entry or a `list/setWindow' answer:
`sections' (every section with its row count), `window' and
`selection'."
  (let* ((sections (mapcar #'listd-mirror--section (plist-get answer :sections)))
         (mirror (listd-mirror--make
                  :list list :version version :sections sections
                  :selection (listd-mirror--selection (plist-get answer :selection))
                  :offset offset :limit limit))
         (vector (vconcat sections)))
    (seq-doseq (row (plist-get (plist-get answer :window) :rows))
      (let* ((path (plist-get row :indexPath))
             (section (and (vectorp path) (< -1 (aref path 0) (length vector))
                           (aref vector (aref path 0)))))
        (unless section (listd-mirror--fail "window row out of range: %S" row))
        (listd-mirror--put-rows section (aref path 1) (vector row))))
    (listd-mirror--set-attributes mirror (plist-get answer :info))
    mirror))

(defun listd-mirror--set-attributes (mirror value)
  "Set MIRROR's list attributes from VALUE (info, snapshot or changeset).
Only the members VALUE has are set: `columns', `emptyState' (nil
removes it), `editing' and `selectionMode'."
  (when (plist-member value :columns)
    (setf (listd-mirror-columns mirror) (plist-get value :columns)))
  (when (plist-member value :emptyState)
    (setf (listd-mirror-empty-state mirror) (plist-get value :emptyState)))
  (when (plist-member value :editing)
    (setf (listd-mirror-editing mirror) (eq (plist-get value :editing) t)))
  (when (plist-member value :selectionMode)
    (setf (listd-mirror-selection-mode mirror) (plist-get value :selectionMode))))

(defconst listd-mirror--known-members
  '(:sectionDeletes :sectionInserts :sectionMoves :sectionReloads
    :itemDeletes :itemInserts :itemMoves :itemReloads :itemReconfigures
    :selected :deselected :expanded :collapsed :selectionMode
    :columns :emptyState :editing :enter)
  "The members a changeset may have.")

(defun listd-mirror--ints (value count what)
  "Check that VALUE is a vector of COUNT integers (WHAT names it)."
  (unless (and (vectorp value) (= (length value) count)
               (seq-every-p #'integerp value))
    (listd-mirror--fail "expected %d integers for %s, got %S" count what value))
  value)

(defun listd-mirror--copy (mirror)
  "A copy of MIRROR that applying may change without touching MIRROR."
  (let ((copy (copy-listd-mirror mirror)))
    (setf (listd-mirror-sections copy)
          (mapcar (lambda (section)
                    (let ((s (copy-listd-mirror-section section)))
                      (setf (listd-mirror-section-rows s)
                            (copy-hash-table (listd-mirror-section-rows section)))
                      s))
                  (listd-mirror-sections mirror))
          (listd-mirror-selection copy)
          (copy-hash-table (listd-mirror-selection mirror)))
    copy))

(defun listd-mirror-apply (mirror params)
  "Apply one `list/didChange' PARAMS to MIRROR; return the new mirror.
MIRROR itself is left as it was.  Signal `listd-mismatch' when
PARAMS is for another list or version or does not fit."
  (let ((version (plist-get params :version))
        (previous (plist-get params :previousVersion)))
    (unless (equal (plist-get params :list) (listd-mirror-list mirror))
      (listd-mirror--fail "didChange for list %S, mirror of %s"
                          (plist-get params :list) (listd-mirror-list mirror)))
    (unless (and (integerp version) (eql previous (listd-mirror-version mirror)))
      (listd-mirror--fail "didChange from version %S to %S applied at version %S"
                          previous version (listd-mirror-version mirror)))
    (let ((copy (listd-mirror--copy mirror)))
      (listd-mirror-apply-changeset copy (plist-get params :changeset))
      (setf (listd-mirror-version copy) version)
      copy)))

(defun listd-mirror-apply-changeset (mirror changeset)
  "Apply CHANGESET to MIRROR in place, in the order the protocol gives."
  (let ((members changeset))
    (while members
      (unless (memq (car members) listd-mirror--known-members)
        (listd-mirror--fail "unknown changeset member %s" (car members)))
      (setq members (cddr members))))
  (let* ((old (vconcat (listd-mirror-sections mirror)))
         (old-count (length old))
         (removed (make-hash-table))   ; old section index -> ((start . count) ...)
         (placements (make-hash-table)) ; new section index -> ((at count known) ...)
         (gone (make-hash-table))
         arriving)
    (cl-flet ((section-at (index what)
                (unless (and (integerp index) (< -1 index old-count))
                  (listd-mirror--fail "%s: section %S is out of range" what index))
                (aref old index)))
      ;; 1. Section reloads and row updates, in old coordinates.
      (seq-doseq (reload (plist-get changeset :sectionReloads))
        (let ((section (section-at (plist-get reload :index) "sectionReloads")))
          (unless (equal (listd-mirror-section-id section) (plist-get reload :id))
            (listd-mirror--fail "section reload at %S does not match"
                                (plist-get reload :index)))
          (listd-mirror--set-section-attributes section reload)))
      (seq-doseq (update (vconcat (plist-get changeset :itemReloads)
                                  (plist-get changeset :itemReconfigures)))
        (let* ((at (listd-mirror--ints (plist-get update :at) 2 "at"))
               (section (section-at (aref at 0) "row update"))
               (table (listd-mirror-section-rows section))
               (rows (plist-get update :rows))
               (count (or (plist-get update :count) (length rows))))
          (unless (<= 0 (aref at 1) (+ (aref at 1) count)
                      (listd-mirror-section-count section))
            (listd-mirror--fail "row update at %S is out of range" at))
          (if rows
              (dotimes (k (length rows))
                (let ((known (gethash (+ (aref at 1) k) table)))
                  (when (and known (not (equal (plist-get known :id)
                                               (plist-get (aref rows k) :id))))
                    (listd-mirror--fail "row update at %S does not match" at))
                  (puthash (+ (aref at 1) k) (aref rows k) table)))
            ;; Counted: outside the window after the change; what is held is stale.
            (listd-mirror--forget table (aref at 1) count))))
      ;; 2. Removals in old coordinates: rows (moved ones kept aside), then sections.
      (seq-doseq (delete (plist-get changeset :itemDeletes))
        (listd-mirror--ints delete 3 "itemDeletes")
        (section-at (aref delete 0) "itemDeletes")
        (push (cons (aref delete 1) (aref delete 2)) (gethash (aref delete 0) removed)))
      ;; Moved rows: each held row finds its move by a binary search, so a
      ;; changeset of M moves over a window of W rows costs M log M + W log M
      ;; (a reversal of 10,000 rows is 9,999 moves).
      (let ((moves (make-hash-table)))  ; old section index -> ([start count to at known] ...)
        (seq-doseq (move (plist-get changeset :itemMoves))
          (listd-mirror--ints move 5 "itemMoves")
          (section-at (aref move 0) "itemMoves")
          (push (cons (aref move 1) (aref move 4)) (gethash (aref move 0) removed))
          (push (vector (aref move 1) (aref move 4) (aref move 2) (aref move 3) nil)
                (gethash (aref move 0) moves)))
        (maphash
         (lambda (index runs)
           (let ((runs (vconcat (sort runs (lambda (a b) (< (aref a 0) (aref b 0)))))))
             (maphash (lambda (row-index row)
                        (cl-incf listd-mirror--visits)
                        (let ((run (listd-mirror--run-at runs row-index)))
                          (when (and run (< row-index (+ (aref run 0) (aref run 1))))
                            (push (cons (- row-index (aref run 0)) row) (aref run 4)))))
                      (listd-mirror-section-rows (aref old index)))
             (seq-doseq (run runs)
               (push (list (aref run 3) (aref run 1) (aref run 4))
                     (gethash (aref run 2) placements)))))
         moves))
      (maphash (lambda (index ranges)
                 (listd-mirror--remove-rows (aref old index) ranges))
               removed)
      (seq-doseq (delete (plist-get changeset :sectionDeletes))
        (listd-mirror--ints delete 2 "sectionDeletes")
        (unless (and (> (aref delete 1) 0) (>= (aref delete 0) 0)
                     (<= (+ (aref delete 0) (aref delete 1)) old-count))
          (listd-mirror--fail "section delete %S is out of range" delete))
        (dotimes (k (aref delete 1))
          (when (gethash (+ (aref delete 0) k) gone)
            (listd-mirror--fail "section %d is removed twice" (+ (aref delete 0) k)))
          (puthash (+ (aref delete 0) k) t gone)))
      (seq-doseq (move (plist-get changeset :sectionMoves))
        (listd-mirror--ints move 2 "sectionMoves")
        (let ((section (section-at (aref move 0) "sectionMoves")))
          (when (gethash (aref move 0) gone)
            (listd-mirror--fail "section %d is removed twice" (aref move 0)))
          (puthash (aref move 0) t gone)
          (push (cons (aref move 1) section) arriving))))
    ;; 3. Inserted and moved sections at their new indexes; the rest keep their order.
    (seq-doseq (insert (plist-get changeset :sectionInserts))
      (unless (integerp (plist-get insert :index))
        (listd-mirror--fail "section insert without index: %S" insert))
      (push (cons (plist-get insert :index)
                  (listd-mirror--section (plist-get insert :section)))
            arriving))
    (let ((remaining (cl-loop for index below (length old)
                              unless (gethash index gone) collect (aref old index))))
      (setf (listd-mirror-sections mirror)
            (listd-mirror--interleave
             (sort arriving (lambda (a b) (< (car a) (car b)))) remaining)))
    ;; 4. Inserted and moved rows at their new index paths.
    (seq-doseq (insert (plist-get changeset :itemInserts))
      (let* ((at (listd-mirror--ints (plist-get insert :at) 2 "at"))
             (rows (plist-get insert :rows))
             (count (or (plist-get insert :count) (length rows))))
        (push (list (aref at 1) count
                    (and rows (cl-loop for k below (length rows)
                                       collect (cons k (aref rows k)))))
              (gethash (aref at 0) placements))))
    (let ((sections (vconcat (listd-mirror-sections mirror))))
      (maphash (lambda (index placed)
                 (unless (< -1 index (length sections))
                   (listd-mirror--fail "new section index %d is out of range" index))
                 (listd-mirror--place-rows (aref sections index) placed))
               placements)
      ;; 5. Selection: deselected ids leave, then selected ids join.
      (let ((selection (listd-mirror-selection mirror)))
        (seq-doseq (id (plist-get changeset :deselected)) (remhash id selection))
        (seq-doseq (id (plist-get changeset :selected)) (puthash id t selection)))
      (listd-mirror--set-attributes mirror changeset)
      ;; Rows that entered the window, then drop what lies outside it.
      (seq-doseq (enter (plist-get changeset :enter))
        (let ((at (listd-mirror--ints (plist-get enter :at) 2 "enter.at")))
          (unless (< -1 (aref at 0) (length sections))
            (listd-mirror--fail "enter at %S is out of range" at))
          (listd-mirror--put-rows (aref sections (aref at 0)) (aref at 1)
                                  (plist-get enter :rows)))))
    (listd-mirror-trim mirror)
    mirror))

(defun listd-mirror--forget (table start count)
  "Remove from TABLE the rows held at START up to START + COUNT."
  (if (< count (hash-table-count table))
      (dotimes (k count) (remhash (+ start k) table))
    (let (doomed)
      (maphash (lambda (index _)
                 (when (and (>= index start) (< index (+ start count)))
                   (push index doomed)))
               table)
      (dolist (index doomed) (remhash index table)))))

(defun listd-mirror--remove-rows (section ranges)
  "Remove the row RANGES ((start . count) ...) from SECTION, renumbering."
  (let* ((ranges (sort ranges (lambda (a b) (< (car a) (car b)))))
         (count (listd-mirror-section-count section))
         (end 0) (total 0)
         (table (make-hash-table :size (hash-table-count
                                        (listd-mirror-section-rows section)))))
    (dolist (range ranges)
      (unless (and (> (cdr range) 0) (>= (car range) end)
                   (<= (+ (car range) (cdr range)) count))
        (listd-mirror--fail "rows %S of section %s are out of range or removed twice"
                            range (listd-mirror-section-id section)))
      (setq end (+ (car range) (cdr range)) total (+ total (cdr range))))
    ;; Each range with the rows removed before it: one binary search per held row.
    (let ((runs (vconcat (let ((before 0))
                           (mapcar (lambda (range)
                                     (prog1 (vector (car range) (cdr range) before)
                                       (setq before (+ before (cdr range)))))
                                   ranges)))))
      (maphash (lambda (index row)
                 (cl-incf listd-mirror--visits)
                 (let ((run (listd-mirror--run-at runs index)))
                   (cond ((null run) (puthash index row table))
                         ((>= index (+ (aref run 0) (aref run 1)))
                          (puthash (- index (aref run 2) (aref run 1)) row table)))))
               (listd-mirror-section-rows section)))
    (setf (listd-mirror-section-rows section) table
          (listd-mirror-section-count section) (- count total))))

(defun listd-mirror--place-rows (section placed)
  "Place PLACED ((at count known) ...) in SECTION at their new indexes.
KNOWN is an alist of offsets in the run and their rows.  The rows
held already fill the other indexes in their order."
  (let* ((placed (sort placed (lambda (a b) (< (car a) (car b)))))
         (total (cl-loop for run in placed sum (cadr run)))
         (count (+ (listd-mirror-section-count section) total))
         (old (listd-mirror-section-rows section))
         (table (make-hash-table :size (+ (hash-table-count old) 16)))
         (end 0) existing)
    (dolist (run placed)
      (unless (and (> (cadr run) 0) (>= (car run) end)
                   (<= (+ (car run) (cadr run)) count))
        (listd-mirror--fail "new rows %d+%d of section %s are out of range or repeated"
                            (car run) (cadr run) (listd-mirror-section-id section)))
      (setq end (+ (car run) (cadr run))))
    (maphash (lambda (index row)
               (cl-incf listd-mirror--visits)
               (push (cons index row) existing))
             old)
    (setq existing (sort existing (lambda (a b) (< (car a) (car b)))))
    (let ((shift 0) (runs placed))
      (dolist (entry existing)
        (while (and runs (<= (car (car runs)) (+ (car entry) shift)))
          (setq shift (+ shift (cadr (car runs))) runs (cdr runs)))
        (puthash (+ (car entry) shift) (cdr entry) table)))
    (dolist (run placed)
      (dolist (known (nth 2 run))
        (puthash (+ (car run) (car known)) (cdr known) table)))
    (setf (listd-mirror-section-rows section) table
          (listd-mirror-section-count section) count)))

(defun listd-mirror--interleave (placed existing)
  "The sections PLACED ((index . section) ..., ascending) among EXISTING."
  (let ((result nil) (index 0))
    (while (or placed existing)
      (cond
       ((and placed (= (car (car placed)) index))
        (push (cdr (pop placed)) result))
       (existing (push (pop existing) result))
       (t (listd-mirror--fail "new section index %d is out of range or repeated"
                              (car (car placed)))))
      (setq index (1+ index)))
    (nreverse result)))

(defun listd-mirror-trim (mirror)
  "Drop the rows of MIRROR outside its window (none when unbounded)."
  (when-let ((limit (listd-mirror-limit mirror)))
    (let ((first 0)
          (start (listd-mirror-offset mirror))
          (end (+ (listd-mirror-offset mirror) limit)))
      (dolist (section (listd-mirror-sections mirror))
        (let ((table (listd-mirror-section-rows section)) doomed)
          (maphash (lambda (index _)
                     (cl-incf listd-mirror--visits)
                     (let ((flat (+ first index)))
                       (unless (and (>= flat start) (< flat end)) (push index doomed))))
                   table)
          (dolist (index doomed) (remhash index table))
          (setq first (+ first (listd-mirror-section-count section))))))))

(defun listd-mirror-total-rows (mirror)
  "The number of visible rows of MIRROR's list."
  (apply #'+ (mapcar #'listd-mirror-section-count (listd-mirror-sections mirror))))

(defun listd-mirror-held-rows (mirror)
  "Return the number of rows held by MIRROR."
  (apply #'+ (mapcar (lambda (s) (hash-table-count (listd-mirror-section-rows s)))
                     (listd-mirror-sections mirror))))

(defun listd-mirror-selected-p (mirror id)
  "Whether item ID is selected in MIRROR."
  (gethash id (listd-mirror-selection mirror)))

(defun listd-mirror-window (mirror)
  "MIRROR's window as (SECTION-INDEX SECTION FIRST-ROW ROWS) per section.
ROWS lists (ROW-INDEX . ROW) of the held rows in the window, in
order; a section is listed when its rows meet the window, or when
it is empty and its place is inside the window."
  (let* ((start (listd-mirror-offset mirror))
         (end (if (listd-mirror-limit mirror)
                  (+ start (listd-mirror-limit mirror))
                most-positive-fixnum))
         (total (listd-mirror-total-rows mirror))
         (first 0) (index 0) result)
    (dolist (section (listd-mirror-sections mirror))
      (let* ((count (listd-mirror-section-count section))
             (last (+ first count)))
        (when (if (= count 0)
                  (and (>= first start) (or (< first end) (and (= first total) (<= total end))))
                (and (< first end) (> last start)))
          (let ((table (listd-mirror-section-rows section)) rows)
            (cl-loop for row from (max 0 (- start first)) below (min count (- end first))
                     for value = (gethash row table)
                     when value do (push (cons row value) rows))
            (push (list index section first (nreverse rows)) result)))
        (setq first last index (1+ index))))
    (nreverse result)))

(provide 'listd-mirror)
;;; listd-mirror.el ends here

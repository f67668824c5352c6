;;; listd-words.el --- Why an item changed, in the shared wording of listd  -*- lexical-binding: t; -*-

;; Copyright (C) 2026 The listd authors

;; Author: The listd authors
;; URL: https://github.com/listd/listd
;; Keywords: tools

;; This file is not part of GNU Emacs.

;;; Commentary:

;; A `list/explain' answer in words, as listd-tui's `w' and the Neovim
;; plugin's `K' write it: the cases of clients/wording/explain-cases.json
;; hold the lines all three show.

;;; Code:

(require 'cl-lib)
(require 'seq)
(require 'subr-x)

(defconst listd-words-limit 40
  "The longest value shown, in characters; longer ones end in \"…\".")

(defun listd-words-shortened (text &optional limit)
  "TEXT cut to LIMIT characters (default `listd-words-limit')."
  (let ((limit (or limit listd-words-limit)))
    (if (<= (length text) limit) text (concat (substring text 0 (1- limit)) "…"))))

(defun listd-words--literal (text)
  "A JSON string literal of TEXT."
  (concat "\""
          (mapconcat (lambda (c)
                       (cond ((eq c ?\") "\\\"") ((eq c ?\\) "\\\\")
                             ((eq c ?\n) "\\n") ((eq c ?\t) "\\t") ((eq c ?\r) "\\r")
                             ((< c #x20) (format "\\u%04x" c))
                             (t (string c))))
                     text "")
          "\""))

(defun listd-words-quoted (text &optional limit)
  "TEXT cut to LIMIT characters, quoted and escaped."
  (listd-words--literal (listd-words-shortened text limit)))

(defun listd-words--plist-p (value)
  "Whether VALUE is a non-empty plist with keyword keys (a JSON object)."
  (and (consp value) (keywordp (car value))))

(defun listd-words-compact (value)
  "VALUE as compact JSON with object members sorted by name."
  (cond
   ((null value) "null")
   ((eq value t) "true")
   ((eq value :json-false) "false")
   ((integerp value) (number-to-string value))
   ((floatp value)
    (if (and (= value (ffloor value)) (< (abs value) 1e15))
        (format "%d" (truncate value))
      (let ((text (format "%.15g" value)))
        (if (= (string-to-number text) value) text (format "%.17g" value)))))
   ((stringp value) (listd-words--literal value))
   ((vectorp value)
    (concat "[" (mapconcat #'listd-words-compact value ",") "]"))
   ((listd-words--plist-p value)
    (let (members)
      (cl-loop for (key item) on value by #'cddr
               do (push (cons (substring (symbol-name key) 1) item) members))
      (setq members (sort members (lambda (a b) (string< (car a) (car b)))))
      (concat "{" (mapconcat (lambda (m) (concat (listd-words--literal (car m)) ":"
                                                 (listd-words-compact (cdr m))))
                             members ",")
              "}")))
   (t (format "%s" value))))

(defun listd-words-accessory (accessory)
  "One ACCESSORY in words: badge \"2\", progress 53%, toggle on."
  (let ((kind (or (plist-get accessory :type) "?")))
    (pcase kind
      ((or "label" "badge") (concat kind " " (listd-words-quoted (or (plist-get accessory :text) ""))))
      ((or "image" "custom") (concat kind " " (listd-words-quoted (or (plist-get accessory :name) ""))))
      ("progress" (format "progress %d%%"
                          (floor (+ 0.5 (* 100 (max 0 (min 1 (or (plist-get accessory :value) 0))))))))
      ("toggle" (if (eq (plist-get accessory :isOn) t) "toggle on" "toggle off"))
      ("popUpMenu" (let ((count (length (plist-get accessory :actions))))
                     (format "popUpMenu (%d action%s)" count (if (= count 1) "" "s"))))
      (_ kind))))

(defun listd-words-accessories (accessories &optional limit)
  "ACCESSORIES in words, \"none\" for none, cut to LIMIT."
  (if (seq-empty-p accessories) "none"
    (listd-words-shortened (mapconcat #'listd-words-accessory accessories ", ") limit)))

(defun listd-words-actions (actions &optional limit)
  "ACTIONS by title, \"none\" for none, cut to LIMIT."
  (if (seq-empty-p actions) "none"
    (listd-words-shortened
     (mapconcat (lambda (action)
                  (let ((title (or (plist-get action :title) (plist-get action :id))))
                    (if (equal (plist-get action :style) "destructive")
                        (concat title " (destructive)")
                      title)))
                actions ", ")
     limit)))

(defun listd-words-value (value field)
  "VALUE of FIELD in words: \"not set\" for null, strings quoted."
  (cond
   ((null value) "not set")
   ((and (equal field "accessories") (vectorp value)) (listd-words-accessories value))
   ((and (string-suffix-p "Actions" field) (vectorp value)) (listd-words-actions value))
   ((stringp value) (listd-words-quoted value))
   (t (listd-words-shortened (listd-words-compact value)))))

(defun listd-words-header (version source)
  "\"v12 · list/edit by session 3 (listctl)\" from VERSION and SOURCE."
  (let* ((by (plist-get source :by))
         (text (format "v%d · %s" version (or (plist-get source :method) "?"))))
    (when (integerp (plist-get by :session))
      (setq text (format "%s by session %d" text (plist-get by :session)))
      (when (stringp (plist-get by :name))
        (setq text (format "%s (%s)" text (plist-get by :name)))))
    text))

(defun listd-words--neighbours (cause)
  "Where CAUSE's row went between its neighbours, or nil."
  (let ((after (plist-get cause :after)) (before (plist-get cause :before)))
    (cond ((and after before) (format "between %s and %s" after before))
          (before (concat "to the start, before " before))
          (after (concat "to the end, after " after)))))

(defun listd-words-phrase (cause expanded)
  "CAUSE's reason in words; EXPANDED lists the ids the change expanded."
  (let* ((change (or (plist-get cause :change) ""))
         (reason (or (plist-get cause :reason) "?"))
         (parent (plist-get cause :parent))
         (section (or (plist-get cause :section) "?"))
         (text
          (pcase reason
            ((or "added" "removed" "changed") reason)
            ("hidden" (concat "hidden under collapsed " (or parent "?")))
            ("revealed" (if (and parent (member parent expanded))
                            (concat "revealed: " parent " was expanded")
                          (concat "revealed: moved out from under collapsed " (or parent "?"))))
            ("reparented" (concat (if parent (concat "moved under " parent) "moved to the top level")
                                  (if (equal change "itemDeletes") ", now hidden" ", was hidden")))
            ("fromDeletedSection" (concat "moved out of deleted section " section))
            ("toInsertedSection" (concat "moved to new section " section))
            ("reloadedAndMoved" "reloaded and moved")
            ("reordered" (let ((where (listd-words--neighbours cause)))
                           (if where (concat "moved " where) "moved")))
            ("changedSection" (let ((where (listd-words--neighbours cause)))
                                (concat "moved from section " (or (plist-get cause :fromSection) "?")
                                        (if where (concat ", " where) ""))))
            ("requested" (pcase change
                           ((or "itemReloads" "sectionReloads") "reload requested")
                           ("itemReconfigures" "reconfigure requested")
                           ((or "selected" "expanded" "collapsed") change)
                           ("selectionMode" (concat "selection mode set to "
                                                    (or (plist-get cause :mode) "?")))
                           (_ "requested")))
            ("unselectable" "no longer selectable")
            ("selectionMode" "the selection mode changed")
            (_ reason))))
    (cond ((and (equal change "deselected") (not (equal reason "deselected")))
           (concat "deselected: " text))
          ((string-prefix-p "section" change) (concat "section " section " " text))
          (t text))))

(defun listd-words-cause-lines (cause expanded)
  "CAUSE's phrase and edit, then a line per changed field.
EXPANDED lists the ids the change expanded."
  (let* ((edit (plist-get cause :edit))
         (line (listd-words-phrase cause expanded)))
    (when (integerp (plist-get edit :index))
      (setq line (format "%s (edit %d: %s)" line (plist-get edit :index)
                         (or (plist-get edit :op) "?"))))
    (cons line
          (mapcar (lambda (change)
                    (let ((field (or (plist-get change :field) "?")))
                      (format "  %s: %s → %s" field
                              (listd-words-value (plist-get change :old) field)
                              (listd-words-value (plist-get change :new) field))))
                  (plist-get cause :fields)))))

(defun listd-words-explain (answer noun)
  "The lines for ANSWER of `list/explain' with an item.
NOUN (\"item\", \"row\") names the item when no kept change concerns it."
  (if (not (integerp (plist-get answer :version)))
      (list (format "No kept change concerns this %s." noun))
    (let* ((explain (plist-get answer :explain))
           (expanded (append (plist-get (plist-get answer :changeset) :expanded) nil)))
      (cons (listd-words-header (plist-get answer :version) (plist-get explain :source))
            (cl-mapcan (lambda (cause) (listd-words-cause-lines cause expanded))
                       (append (plist-get explain :causes) nil))))))

(provide 'listd-words)
;;; listd-words.el ends here

;;; routes-mode.el --- Major mode for .routes files (ComposableNavigator navigation trees) -*- lexical-binding: t; -*-

;; Version: 0.1.0
;; Package-Requires: ((emacs "27.1"))
;; Keywords: languages
;; URL: https://example.invalid/routes

;;; Commentary:

;; A major mode for the `.routes' language, which describes the navigation
;; tree of an iOS app built with ComposableNavigator, and its integration with
;; the `routes lsp' language server through Eglot.
;;
;; Setup:
;;
;;   (add-to-list 'load-path "/path/to/routes/Editors/emacs")
;;   (require 'routes-mode)
;;   (setq routes-lsp-command '("/path/to/routes" "lsp"))   ; if not on PATH
;;   (add-hook 'routes-mode-hook #'eglot-ensure)
;;
;; `routes-mode' gives font-lock (keywords, declared names, types, comments,
;; doc comments, strings), indentation (`routes-indent-offset' per open
;; bracket), comments, imenu, and registers the server with Eglot.
;; `M-x routes-preview' (C-c C-p) shows the routing tree of the current file;
;; with a prefix argument it asks for a path and an environment and shows how
;; that path resolves.

;;; Code:

(require 'subr-x)

(defgroup routes nil
  "Support for .routes files (ComposableNavigator navigation trees)."
  :group 'languages
  :prefix "routes-")

(defcustom routes-indent-offset 2
  "Number of columns per open bracket in `routes-mode'."
  :type 'integer
  :safe #'integerp)

(defcustom routes-lsp-command '("routes" "lsp")
  "Command (program and arguments) that starts the routes language server."
  :type '(repeat string))

(defcustom routes-preview-timeout 10
  "Seconds to wait for the server's answer to `routes-preview'."
  :type 'number)

(defface routes-doc-comment-face
  '((t :inherit font-lock-doc-face))
  "Face for `///' doc comments in `routes-mode'.")

(defface routes-presentation-face
  '((t :inherit font-lock-builtin-face))
  "Face for presentations (`push', `sheet', `cover', `popover', `allowsPush') in `routes-mode'.")

;;;; Syntax

(defconst routes-declaration-keywords
  '("import" "screen" "dependency" "optional" "flag" "builder" "root")
  "Keywords that start a top-level declaration.")

(defconst routes-builder-keywords
  '("anyOf" "conditional" "else" "if" "let" "wildcard" "empty" "uses" "from")
  "Keywords of builders and declarations other than the leading one.")

(defconst routes-presentation-keywords '("push" "sheet" "allowsPush")
  "Presentation words.")

(defvar routes-mode-syntax-table
  (let ((table (make-syntax-table)))
    ;; `//' starts a comment that ends at the end of the line.
    (modify-syntax-entry ?/ ". 12" table)
    (modify-syntax-entry ?\n ">" table)
    (modify-syntax-entry ?\r ">" table)
    (modify-syntax-entry ?\" "\"" table)
    (modify-syntax-entry ?\\ "\\" table)
    (modify-syntax-entry ?_ "_" table)
    (modify-syntax-entry ?\{ "(}" table)
    (modify-syntax-entry ?\} "){" table)
    (modify-syntax-entry ?\( "()" table)
    (modify-syntax-entry ?\) ")(" table)
    (modify-syntax-entry ?\[ "(]" table)
    (modify-syntax-entry ?\] ")[" table)
    (dolist (c '(?: ?, ?. ?? ?- ?=))
      (modify-syntax-entry c "." table))
    table)
  "Syntax table of `routes-mode'.")

(defun routes--syntactic-face (state)
  "The face of the string or comment described by the `syntax-ppss' STATE."
  (cond ((nth 3 state) font-lock-string-face)
        ((save-excursion
           (goto-char (nth 8 state))
           (and (looking-at-p "///") (not (looking-at-p "////"))))
         'routes-doc-comment-face)
        (t font-lock-comment-face)))

(defconst routes--identifier "[A-Za-z_][A-Za-z0-9_]*")

(defvar routes-font-lock-keywords
  (let ((id routes--identifier))
    `(;; A label, `name:' (also a keyword used as a label, `from: Account'), and
      ;; the name of a dependency or optional, which is followed by `:'.
      (,(concat "\\_<\\(" id "\\)\\s-*:") 1 font-lock-variable-name-face)
      ;; `link NAME "PATTERN" -> PATH': `link' is a keyword only at the start of a
      ;; line before a name or a string.
      (,(concat "^\\s-*\\(link\\)\\s-+\\(" id "\\)\\s-+\"") (1 font-lock-keyword-face) (2 font-lock-constant-face))
      ("->" . font-lock-builtin-face)
      ("{[A-Za-z_][A-Za-z0-9_]*\\??}" 0 font-lock-variable-name-face t)
      ;; Declared names.
      (,(concat "\\_<builder\\s-+\\(" id "\\)") 1 font-lock-function-name-face)
      (,(concat "\\_<flag\\s-+\\(" id "\\)") 1 font-lock-variable-name-face)
      (,(concat "\\_<\\(?:screen\\|wildcard\\|from\\)\\s-+\\(" id "\\)") 1 font-lock-type-face)
      ;; Swift type names after `:' (`id: Product.ID', `[String: Int]?').
      (,(concat ":\\s-*\\[*\\([A-Z][A-Za-z0-9_.]*\\)") 1 font-lock-type-face)
      (,(regexp-opt routes-declaration-keywords 'symbols) . font-lock-keyword-face)
      (,(regexp-opt routes-builder-keywords 'symbols) . font-lock-keyword-face)
      (,(regexp-opt routes-presentation-keywords 'symbols) . 'routes-presentation-face)
      ;; `cover' and `popover' after a screen's declaration, and `as PRESENTATION'
      ;; after a screen node's name: words with a meaning only there.
      (,(concat "^\\s-*screen\\s-+" id "\\s-*\\(?:([^)]*)\\s-*\\)?\\_<\\(cover\\|popover\\)\\_>")
       1 'routes-presentation-face)
      (,(concat "\\_<screen\\s-+" id "\\s-+\\(as\\)\\s-+\\(push\\|sheet\\|cover\\|popover\\)\\_>")
       (1 font-lock-keyword-face) (2 'routes-presentation-face))
      (,(regexp-opt '("true" "false") 'symbols) . font-lock-constant-face)
      ("\\_<-?[0-9]+\\(?:\\.[0-9]+\\)?\\_>" . font-lock-constant-face)))
  "Font-lock keywords of `routes-mode'.")

;;;; Indentation

(defconst routes--toplevel-regexp
  (concat (regexp-opt '("import" "dependency" "optional" "flag" "builder" "root") 'symbols)
          "\\s-*\\(?:[^:[:space:]]\\|$\\)")
  "A line that starts like this is a top-level declaration.
The parser closes every open block there (docs/language.md#after-an-error), so it
is indented at column 0 even after an unclosed brace.")

(defun routes--line-indentation-at (pos)
  "The indentation of the line holding POS."
  (save-excursion (goto-char pos) (current-indentation)))

(defun routes-calculate-indentation ()
  "The column the current line should be indented to, or nil to leave it."
  (save-excursion
    (let* ((ppss (syntax-ppss (line-beginning-position))) ; moves point there
           (open (nth 1 ppss)))
      (back-to-indentation)
      (cond
       ((nth 3 ppss) nil)               ; inside a string
       ((null open) 0)
       ((looking-at-p routes--toplevel-regexp) 0)
       ;; A closing bracket lines up with the line of its opening one.
       ((looking-at-p "\\s)")
        (routes--line-indentation-at open))
       (t (+ (routes--line-indentation-at open) routes-indent-offset))))))

(defun routes-indent-line ()
  "Indent the current line: `routes-indent-offset' per open bracket."
  (interactive)
  (let ((column (routes-calculate-indentation)))
    (when column
      (if (<= (current-column) (current-indentation))
          (indent-line-to column)
        (save-excursion (indent-line-to column))))))

;;;; Eglot

(defun routes--eglot-contact (&optional _interactive)
  "The command that starts the language server (`routes-lsp-command')."
  routes-lsp-command)

(with-eval-after-load 'eglot
  (defvar eglot-server-programs)
  (add-to-list 'eglot-server-programs '(routes-mode . routes--eglot-contact)))

;;;; Preview

(declare-function eglot-current-server "eglot")
(declare-function eglot--TextDocumentIdentifier "eglot")
(declare-function eglot--signal-textDocument/didChange "eglot")
(declare-function eglot--path-to-uri "eglot")
(declare-function eglot-path-to-uri "eglot")
(declare-function jsonrpc-request "jsonrpc")

(defvar-local routes-preview--source nil
  "In a preview buffer: the routes buffer it previews.")
(defvar-local routes-preview--arguments nil
  "In a preview buffer: the (PATH FLAGS OPTIONALS) it was made with.")

(defun routes--text-document ()
  "The LSP TextDocumentIdentifier of the current buffer."
  (cond ((fboundp 'eglot--TextDocumentIdentifier) (eglot--TextDocumentIdentifier))
        ((fboundp 'eglot-path-to-uri) (list :uri (eglot-path-to-uri buffer-file-name)))
        (t (list :uri (eglot--path-to-uri buffer-file-name)))))

(defun routes--json-object (alist)
  "A hash table (a JSON object) of the boolean ALIST of (NAME . BOOL)."
  (let ((table (make-hash-table :test #'equal)))
    (dolist (entry alist)
      (puthash (car entry) (if (cdr entry) t :json-false) table))
    table))

(defun routes-parse-environment (text)
  "Parse TEXT, `NAME=true|false' (flags) and `NAME=present|absent' (optionals).
Return (FLAGS . OPTIONALS), each an alist of (NAME . BOOL)."
  (let (flags optionals)
    (dolist (word (split-string (or text "") "[ \t\n,]+" t))
      (if (string-match "\\`\\([A-Za-z_][A-Za-z0-9_]*\\)=\\([a-z]+\\)\\'" word)
          (let ((name (match-string 1 word))
                (value (match-string 2 word)))
            (pcase value
              ("true" (push (cons name t) flags))
              ("false" (push (cons name nil) flags))
              ("present" (push (cons name t) optionals))
              ("absent" (push (cons name nil) optionals))
              (_ (user-error "%s: expected NAME=true|false or NAME=present|absent" word))))
        (user-error "%s: expected NAME=true|false or NAME=present|absent" word)))
    (cons (nreverse flags) (nreverse optionals))))

(defun routes-preview-request (&optional path flags optionals)
  "Send `routes/preview' for the current buffer; return the result plist.
PATH is a path literal (\"Home/Detail\") or nil for the routing
tree; FLAGS and OPTIONALS are alists of (NAME . BOOL)."
  (unless (featurep 'eglot)
    (user-error "routes-preview needs Eglot"))
  (let ((server (eglot-current-server)))
    (unless server
      (user-error "No language server for this buffer; start one with M-x eglot"))
    ;; Send pending edits first, so that the preview shows the buffer as it is.
    (when (fboundp 'eglot--signal-textDocument/didChange)
      (eglot--signal-textDocument/didChange))
    (condition-case err
        (jsonrpc-request server :routes/preview
                         (list :textDocument (routes--text-document)
                               :path (and path (not (string-empty-p path)) path) ; nil is null
                               :flags (routes--json-object flags)
                               :optionals (routes--json-object optionals))
                         :timeout routes-preview-timeout)
      (jsonrpc-error
       (user-error "routes/preview: %s"
                   (or (alist-get 'jsonrpc-error-message (cddr err)) (cadr err)))))))

(defvar routes-preview-font-lock-keywords
  `(("^environment:.*$" . font-lock-comment-face)
    ("[│├└─]+" . 'shadow)
    ("\\_<\\(?:true\\|false\\|then\\|else\\):" . font-lock-constant-face)
    ("↻ [A-Za-z_][A-Za-z0-9_]*" . font-lock-warning-face)
    (,(regexp-opt '("root" "anyOf" "conditional" "if let" "if screen" "wildcard" "empty" "uses")
                  'symbols)
     . font-lock-keyword-face)
    ("(\\(?:sheet\\|push\\|cover\\|popover\\)[^)]*)" . 'routes-presentation-face)
    ("\\_<built at\\_>" . font-lock-comment-face)
    ("\\_<not built:.*$" . font-lock-warning-face))
  "Font-lock keywords of `routes-preview-mode'.")

(define-derived-mode routes-preview-mode special-mode "Routes-Preview"
  "Major mode of the `*routes-preview*' buffer.
\\<routes-preview-mode-map>\\[revert-buffer] asks the server again."
  (setq-local font-lock-defaults '(routes-preview-font-lock-keywords t))
  (setq-local truncate-lines t)
  (setq-local revert-buffer-function #'routes-preview--revert))

(defun routes-preview--revert (&rest _)
  "Refresh the preview from its source buffer."
  (let ((source routes-preview--source)
        (arguments routes-preview--arguments))
    (unless (buffer-live-p source)
      (user-error "The previewed buffer is gone"))
    (with-current-buffer source
      (apply #'routes-preview arguments))))

(defun routes-preview (&optional path environment-or-flags optionals)
  "Show the routing tree of the current file in `*routes-preview*'.
With a prefix argument, ask for a PATH (shows how that path
resolves) and an environment, `NAME=true|false' for flags and
`NAME=present|absent' for optionals.  From Lisp,
ENVIRONMENT-OR-FLAGS is such a string or an alist of flags, and
OPTIONALS an alist of optionals."
  (interactive
   (when current-prefix-arg
     (list (read-string "Path (empty for the routing tree): ")
           (read-string "Environment (NAME=true|false NAME=present|absent ...): "))))
  (let* ((environment (if (stringp environment-or-flags)
                          (routes-parse-environment environment-or-flags)
                        (cons environment-or-flags optionals)))
         (flags (car environment))
         (optionals (cdr environment))
         (result (routes-preview-request path flags optionals))
         (text (or (plist-get result :text) ""))
         (source (current-buffer))
         (buffer (get-buffer-create "*routes-preview*")))
    (with-current-buffer buffer
      (let ((inhibit-read-only t))
        (unless (derived-mode-p 'routes-preview-mode)
          (routes-preview-mode))
        (erase-buffer)
        (insert text)
        (unless (or (string-empty-p text) (string-suffix-p "\n" text))
          (insert "\n"))
        (goto-char (point-min)))
      (setq routes-preview--source source
            routes-preview--arguments (list path flags optionals)))
    (display-buffer buffer)
    buffer))

;;;; Mode

(defvar routes-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map (kbd "C-c C-p") #'routes-preview)
    map)
  "Keymap of `routes-mode'.")

(defvar routes-imenu-generic-expression
  `(("Screens" ,(concat "^\\s-*screen\\s-+\\(" routes--identifier "\\)") 1)
    ("Builders" ,(concat "^\\s-*\\(builder\\s-+" routes--identifier "\\|root\\)\\_>") 1)
    ("Dependencies"
     ,(concat "^\\s-*\\(?:dependency\\|optional\\)\\s-+\\(" routes--identifier "\\)") 1)
    ("Flags" ,(concat "^\\s-*flag\\s-+\\(" routes--identifier "\\)") 1))
  "Imenu index of `routes-mode'.")

;;;###autoload
(define-derived-mode routes-mode prog-mode "Routes"
  "Major mode for .routes files: ComposableNavigator navigation trees.

Start the language server with \\[eglot] (or add `eglot-ensure' to
`routes-mode-hook'); \\[routes-preview] shows the routing tree.

\\{routes-mode-map}"
  :syntax-table routes-mode-syntax-table
  (setq-local font-lock-defaults
              '(routes-font-lock-keywords
                nil nil nil nil
                (font-lock-syntactic-face-function . routes--syntactic-face)))
  (setq-local comment-start "// ")
  (setq-local comment-end "")
  (setq-local comment-start-skip "//+\\s-*")
  (setq-local comment-use-syntax t)
  (setq-local indent-line-function #'routes-indent-line)
  (setq-local indent-tabs-mode nil)
  (setq-local electric-indent-chars (append "{}()[]" electric-indent-chars))
  (setq-local imenu-generic-expression routes-imenu-generic-expression))

;;;###autoload
(add-to-list 'auto-mode-alist '("\\.routes\\'" . routes-mode))

(provide 'routes-mode)
;;; routes-mode.el ends here

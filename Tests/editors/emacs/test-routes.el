;;; test-routes.el --- End-to-end test of Editors/emacs/routes-mode.el -*- lexical-binding: t; -*-

;; Runs in a real `emacs --batch' against a real `routes lsp' through Eglot.
;; From the repository root:
;;
;;   ROUTES_BIN=.build/debug/routes timeout 120 emacs --batch \
;;     -l Editors/emacs/routes-mode.el -l Tests/editors/emacs/test-routes.el \
;;     -f routes-test-run
;;
;; Prints one line per check and exits with status 0 when all pass, 1
;; otherwise.  Every wait is bounded, all of them share one time budget
;; (ROUTES_EDITOR_TEST_BUDGET_MS, default 90000), and waits stop early when the
;; server process has died, so a broken server fails well within the timeout.

;;; Code:

(require 'cl-lib)
(require 'subr-x)

;; Eglot: built in from Emacs 29; Debian's elpa-eglot for Emacs 28, which a
;; batch Emacs started without -Q finds through site-start, and one started
;; with -Q finds here.
(unless (locate-library "eglot")
  (dolist (dir (file-expand-wildcards "/usr/share/emacs/site-lisp/elpa/eglot-*"))
    (add-to-list 'load-path dir)))
(require 'eglot)
(require 'flymake)
(require 'routes-mode)

(defconst routes-test--repo
  (expand-file-name "../../../" (file-name-directory (or load-file-name buffer-file-name)))
  "The repository root (this file is Tests/editors/emacs/test-routes.el).")

(defvar routes-test--passed 0)
(defvar routes-test--failed 0)
(defvar routes-test--deadline nil)
(defvar routes-test--tmp nil "The fixtures' directory, deleted at the end.")
(defvar routes-test--budget-ms
  (or (ignore-errors (string-to-number (getenv "ROUTES_EDITOR_TEST_BUDGET_MS"))) 0))

(defun routes-test--out (format-string &rest args)
  "Print a line to stdout (and to $ROUTES_EDITOR_TEST_LOG)."
  (let ((line (apply #'format format-string args)))
    (princ (concat line "\n"))
    (when-let ((log (getenv "ROUTES_EDITOR_TEST_LOG")))
      (unless (string-empty-p log)
        (write-region (concat line "\n") nil log 'append 'silent)))))

(define-error 'routes-test-failure "Expectation failed")

(defun routes-test--expect (condition format-string &rest args)
  "Fail the current check unless CONDITION."
  (unless condition
    (signal 'routes-test-failure (list (apply #'format format-string args)))))

(defmacro routes-test--check (name &rest body)
  "Run BODY as the check NAME; record and print the outcome.
Return non-nil on success."
  (declare (indent 1))
  `(let ((start (float-time)))
     (condition-case err
         (progn ,@body
                (cl-incf routes-test--passed)
                (routes-test--out "ok   - %s (%d ms)" ,name (* 1000 (- (float-time) start)))
                t)
       (routes-test-failure
        (cl-incf routes-test--failed)
        (routes-test--out "FAIL - %s (%d ms)\n       %s" ,name (* 1000 (- (float-time) start))
                          (cadr err))
        nil)
       (error
        (cl-incf routes-test--failed)
        (routes-test--out "FAIL - %s (%d ms)\n       error: %S" ,name
                          (* 1000 (- (float-time) start)) err)
        nil))))

(defun routes-test--remaining (seconds)
  "SECONDS, or less when the shared time budget is nearly used up."
  (let ((left (- routes-test--deadline (float-time))))
    (routes-test--expect (> left 0) "time budget used up by earlier checks")
    (min seconds left)))

(defun routes-test--server-alive-p (server)
  "Whether SERVER's process is still running."
  (and server (process-live-p (jsonrpc--process server)) t))

(defun routes-test--wait (seconds predicate &optional server)
  "Wait up to SECONDS (within the budget) for PREDICATE.
Process output and timers run meanwhile.  Stop early when SERVER
has died.  Return PREDICATE's last value."
  (let ((end (+ (float-time) (routes-test--remaining seconds)))
        value)
    (while (and (not (setq value (funcall predicate)))
                (< (float-time) end)
                (or (null server) (routes-test--server-alive-p server)))
      (routes-test--command-loop-tick)
      (accept-process-output nil 0.05))
    value))

(defun routes-test--command-loop-tick ()
  "Do for the current buffer what the interactive command loop would.
Batch Emacs runs no commands, never redisplays and is never idle,
so what Eglot and Flymake hang on those never happens by itself:
`eglot-ensure' connects from `post-command-hook', Flymake starts
checking a buffer once it is displayed (`window-configuration-change-hook'),
and Eglot sends didChange from an idle timer."
  (run-hooks 'post-command-hook)
  (when (get-buffer-window (current-buffer))
    (run-hooks 'window-configuration-change-hook))
  (dolist (buffer (buffer-list))
    (with-current-buffer buffer
      (when (and (bound-and-true-p eglot--managed-mode)
                 (bound-and-true-p eglot--recent-changes))
        (eglot--signal-textDocument/didChange)))))

(defun routes-test--write (file text)
  "Write TEXT to FILE."
  (with-temp-file file (insert text)))

(defconst routes-test--broken
  "/// Browse -> product.
screen Browse
screen ProductDetail(id: Product.ID)
dependency catalogStore: CatalogStore

root {
  screen Browse uses catalogStore {
    screen ProductDetail uses catalogStor
  }
}
")

(defconst routes-test--seed
  "/// The landing screen of a signed-in user.
screen Home
screen Settings
screen Detail(id: String) sheet
screen Login
dependency appStore: AppStore
dependency settingsStore: SettingsStore from Home
dependency loginStore: LoginStore
optional detailStore: DetailStore
flag isLoggedIn

builder detail {
  screen Detail uses detailStore {
    detail
  }
}

root {
  conditional isLoggedIn {
    wildcard Home {
      screen Home uses appStore {
        anyOf {
          screen Settings uses settingsStore
          if let detailStore {
            detail
          } else {
            empty
          }
        }
      }
    }
  } else {
    wildcard Login {
      screen Login uses loginStore
    }
  }
}
")

(defconst routes-test--indented
  "/// Docs.
screen Detail(
  id: String
) sheet
root {
  anyOf {
    screen Home uses appStore {
      if let detailStore { detail } else {
        empty
      }
    }
    // a comment { with a brace
    wildcard Login { screen Login }
  }
}
builder half {
  anyOf {
    screen Home
dependency x: X
")

(defconst routes-test--links
  "screen Home
screen Detail(id: Int)
screen Admin
flag isPro
/// An item, for subscribers.
link item \"/items/{id}\" -> Home/Detail(id: id)
link admin \"/admin\" -> Home/Admin
root {
  screen Home {
    conditional isPro { screen Detail } else { empty }
  }
}
"
  "A link whose path is built under a flag, and one that is never built.")

(defun routes-test--word-position (word)
  "The buffer position of the first whole-symbol occurrence of WORD."
  (save-excursion
    (goto-char (point-min))
    (routes-test--expect (re-search-forward (concat "\\_<" (regexp-quote word) "\\_>") nil t)
                         "fixture has no %s" word)
    (match-beginning 0)))

(defun routes-test--face-at (pos)
  "The face at POS (the first one, when there are several)."
  (let ((face (get-text-property pos 'face)))
    (if (consp face) (car face) face)))

(defun routes-test-run ()
  "Run every check and exit: 0 when all passed, 1 otherwise."
  (setq routes-test--deadline
        (+ (float-time) (/ (if (> routes-test--budget-ms 0) routes-test--budget-ms 90000) 1000.0)))
  (condition-case err
      (routes-test--run-checks)
    (error
     (cl-incf routes-test--failed)
     (routes-test--out "FAIL - test script error: %S" err)))
  (routes-test--out "emacs: %d checks passed, %d failed" routes-test--passed routes-test--failed)
  (when routes-test--tmp
    (ignore-errors (delete-directory routes-test--tmp t)))
  (kill-emacs (if (or (> routes-test--failed 0) (= routes-test--passed 0)) 1 0)))

(defun routes-test--run-checks ()
  "The checks."
  (let* ((repo routes-test--repo)
         (bin-env (getenv "ROUTES_BIN"))
         (bin (cond ((or (null bin-env) (string-empty-p bin-env))
                     (expand-file-name ".build/debug/routes" repo))
                    ((string-match-p "/" bin-env) (expand-file-name bin-env))
                    (t (or (executable-find bin-env) bin-env))))
         (tmp (setq routes-test--tmp
                    (file-name-as-directory (make-temp-file "routes-emacs-test" t))))
         (broken-file (expand-file-name "Broken.routes" tmp))
         (seed-file (expand-file-name "App.routes" tmp))
         (inhibit-message nil)
         server broken seed got-diagnostics)
    (routes-test--out "emacs: GNU Emacs %s, Eglot %s" emacs-version
                      (or (ignore-errors
                            (with-temp-buffer
                              (insert-file-contents (find-library-name "eglot"))
                              (and (re-search-forward "^;; Version: \\(.*\\)$" nil t)
                                   (match-string 1))))
                          "?"))
    (routes-test--out "emacs: server %s" bin)
    (routes-test--write broken-file routes-test--broken)
    (routes-test--write seed-file routes-test--seed)
    (setq routes-lsp-command (list bin "lsp"))
    ;; The README's setup: Eglot starts with the mode.
    (add-hook 'routes-mode-hook #'eglot-ensure)
    ;; No questions in batch.
    (setq eglot-autoshutdown nil
          eglot-sync-connect 3
          eglot-connect-timeout 20)

    (routes-test--check "auto-mode-alist, comment syntax and Eglot registration"
      (setq broken (find-file-noselect broken-file))
      (with-current-buffer broken
        (routes-test--expect (eq major-mode 'routes-mode) "major mode is %s" major-mode)
        (routes-test--expect (equal comment-start "// ") "comment-start is %S" comment-start)
        (let ((contact (nth 3 (eglot--guess-contact))))
          (routes-test--expect (equal contact (list bin "lsp")) "Eglot contact is %S" contact))
        ;; Comment a line, as M-; does.
        (with-temp-buffer
          (routes-mode)
          (insert "screen Home")
          (comment-region (point-min) (point-max))
          (routes-test--expect (equal (buffer-string) "// screen Home")
                               "comment-region gave %S" (buffer-string)))))

    (routes-test--check "indentation: indent-region gives the expected text"
      (with-temp-buffer
        (routes-mode)
        (insert (replace-regexp-in-string "^[ \t]+" "" routes-test--indented))
        (indent-region (point-min) (point-max))
        (routes-test--expect (equal (buffer-string) routes-test--indented)
                             "indent-region gave:\n%s" (buffer-string))
        ;; TAB on a closing brace dedents.
        (goto-char (point-min))
        (search-forward "wildcard Login")
        (end-of-line)
        (insert "\n    }")
        (routes-indent-line)
        (routes-test--expect (equal (buffer-substring (line-beginning-position) (line-end-position))
                                    "  }")
                             "closing brace indented as %S"
                             (buffer-substring (line-beginning-position) (line-end-position)))))

    (routes-test--check "font-lock: keywords, names, types, comments, doc comments, strings"
      (with-temp-buffer
        (routes-mode)
        (insert "/// Docs.\n// Plain.\nimport \"Other.routes\"\n"
                "screen Transfer(from: Account.ID) sheet\n"
                "dependency appStore: AppStore\nbuilder home {\n  screen Transfer uses appStore\n}\n")
        (font-lock-ensure)
        (setq case-fold-search nil)
        (dolist (expected `(("Docs" routes-doc-comment-face)
                            ("Plain" font-lock-comment-face)
                            ("import" font-lock-keyword-face)
                            ("\"Other" font-lock-string-face)
                            ("screen Transfer(" font-lock-keyword-face)
                            ("Transfer(" font-lock-type-face)
                            ("from:" font-lock-variable-name-face)
                            ("Account.ID" font-lock-type-face)
                            ("sheet" routes-presentation-face)
                            ("appStore:" font-lock-variable-name-face)
                            ("AppStore" font-lock-type-face)
                            ("home" font-lock-function-name-face)
                            ("uses" font-lock-keyword-face)))
          (goto-char (point-min))
          (search-forward (car expected))
          (let ((face (routes-test--face-at (match-beginning 0))))
            (routes-test--expect (eq face (cadr expected)) "%S has face %S, expected %S"
                                 (car expected) face (cadr expected))))))

    (routes-test--check "Eglot connects to the server (eglot-ensure from routes-mode-hook)"
      ;; Visit the file as a user would: shown in the selected window.
      (switch-to-buffer broken)
      (with-current-buffer broken
        (setq server (routes-test--wait 20 (lambda () (and (eglot-managed-p) (eglot-current-server)))))
        (routes-test--expect server "no Eglot server manages Broken.routes")
        (routes-test--expect (routes-test--server-alive-p server) "the server process died")
        (routes-test--expect (eglot--server-capable :completionProvider)
                             "server announced no completionProvider")))

    (routes-test--check "diagnostics: Flymake shows undefined-name for `catalogStor'"
      (routes-test--expect server "no server")
      (with-current-buffer broken
        (let* ((pos (save-excursion
                      (goto-char (point-min))
                      (re-search-forward "uses \\(catalogStor\\)$")
                      (match-beginning 1)))
               (diags (routes-test--wait 15 (lambda () (flymake-diagnostics (point-min) (point-max)))
                                         server))
               (found (cl-find-if (lambda (d)
                                    (string-match-p "\\[undefined-name\\]" (flymake-diagnostic-text d)))
                                  diags)))
          (routes-test--expect diags "no diagnostics within 15 s (server alive: %s)"
                               (routes-test--server-alive-p server))
          (routes-test--expect found "no undefined-name diagnostic among %S"
                               (mapcar #'flymake-diagnostic-text diags))
          (routes-test--expect (eq (flymake-diagnostic-type found) 'eglot-error)
                               "type %S" (flymake-diagnostic-type found))
          (routes-test--expect (= (flymake-diagnostic-beg found) pos)
                               "at %d, expected %d" (flymake-diagnostic-beg found) pos)
          (routes-test--expect (string-match-p "catalogStor" (flymake-diagnostic-text found))
                               "message %S" (flymake-diagnostic-text found))
          (setq got-diagnostics t))))

    (routes-test--check "diagnostics: fixing the name in the buffer (unsaved) clears the error"
      (routes-test--expect got-diagnostics "skipped: the error was never shown")
      (with-current-buffer broken
        (goto-char (point-min))
        (re-search-forward "uses catalogStor$")
        (insert "e")
        (routes-test--expect
         (routes-test--wait 10 (lambda () (null (flymake-diagnostics (point-min) (point-max))))
                            server)
         "diagnostics still shown after the fix: %S"
         (mapcar #'flymake-diagnostic-text (flymake-diagnostics (point-min) (point-max))))))

    (routes-test--check "code action: the preferred quick fix for a misspelt name, applied, clears the error"
      (routes-test--expect got-diagnostics "skipped: the error was never shown")
      (with-current-buffer broken
        ;; Misspell the name again (unsaved) and wait for its error.
        (goto-char (point-min))
        (re-search-forward "ProductDetail uses catalogStore$")
        (delete-char -1)
        (routes-test--expect
         (routes-test--wait 10 (lambda () (flymake-diagnostics (point-min) (point-max))) server)
         "the misspelt name was not reported again")
        ;; What `M-x eglot-code-actions' asks at point: the diagnostics there as context.
        (let* ((beg (save-excursion (re-search-backward "catalogStor") (point)))
               (jsonrpc-default-request-timeout (routes-test--remaining 10))
               (actions (eglot-code-actions beg (point)))
               (chosen (cl-find-if (lambda (a) (plist-get a :isPreferred)) actions)))
          (routes-test--expect chosen "no preferred action among %S"
                               (mapcar (lambda (a) (plist-get a :title)) actions))
          (routes-test--expect (equal (plist-get chosen :title) "Use `catalogStore`")
                               "preferred action %S" (plist-get chosen :title))
          (routes-test--expect (equal (plist-get chosen :kind) "quickfix") "kind %S" (plist-get chosen :kind))
          ;; Eglot applies the (versioned) edit; later Eglots name that `eglot-execute'.
          (let ((eglot-confirm-server-initiated-edits nil))
            (if (fboundp 'eglot-execute)
                (eglot-execute server chosen)
              (eglot--apply-workspace-edit (plist-get chosen :edit))))
          (goto-char (point-min))
          (routes-test--expect (re-search-forward "ProductDetail uses catalogStore$" nil t)
                               "the buffer after the fix:\n%s" (buffer-string))
          (routes-test--expect
           (routes-test--wait 10 (lambda () (null (flymake-diagnostics (point-min) (point-max)))) server)
           "diagnostics still shown after the code action: %S"
           (mapcar #'flymake-diagnostic-text (flymake-diagnostics (point-min) (point-max)))))))

    (routes-test--check "routes-preview shows the routing tree in *routes-preview*"
      (routes-test--expect server "no server")
      (setq seed (find-file-noselect seed-file))
      (switch-to-buffer seed)
      (with-current-buffer seed
        (routes-test--expect (routes-test--wait 10 #'eglot-managed-p) "App.routes not managed")
        (routes-test--expect (eq (eglot-current-server) server) "a second server was started")
        (let ((routes-preview-timeout (routes-test--remaining 10)))
          (routes-preview)))
      (with-current-buffer "*routes-preview*"
        (let ((lines (split-string (buffer-string) "\n" t)))
          (routes-test--expect (equal (car lines) "root") "first line %S; text:\n%s"
                               (car lines) (buffer-string))
          (dolist (wanted '("└─ conditional isLoggedIn"
                            "   ├─ true: wildcard Home"
                            "   │           │  └─ ↻ detail"
                            "      └─ Login  uses loginStore"))
            (routes-test--expect (member wanted lines) "preview lacks %S; text:\n%s"
                                 wanted (buffer-string)))
          (routes-test--expect (= (length lines) 12) "preview has %d lines" (length lines))
          (routes-test--expect (derived-mode-p 'special-mode) "mode %s" major-mode)
          (routes-test--expect buffer-read-only "preview is writable"))))

    (routes-test--check "routes-preview PATH ENV shows the resolution (path and environment reach the server)"
      (routes-test--expect server "no server")
      (with-current-buffer seed
        (let ((routes-preview-timeout (routes-test--remaining 10)))
          (routes-preview "Login" "isLoggedIn=false detailStore=absent")))
      (with-current-buffer "*routes-preview*"
        (let ((text (buffer-string)))
          (routes-test--expect (string-match-p "\\`environment:.*isLoggedIn=false" text)
                               "no environment line with isLoggedIn=false:\n%s" text)
          (routes-test--expect (string-match-p "detailStore=absent" text) "no detailStore=absent:\n%s" text)
          (routes-test--expect (string-match-p "^Login +built at" text) "Login not built:\n%s" text))))

    (routes-test--check "completion after `screen ' in a builder position lists the screens"
      (routes-test--expect server "no server")
      (with-current-buffer seed
        (goto-char (routes-test--word-position "empty"))
        (delete-region (point) (line-end-position))
        (insert "screen ")
        (let* ((capf (eglot-completion-at-point))
               (table (nth 2 capf))
               (jsonrpc-default-request-timeout (routes-test--remaining 10))
               (labels (and table (all-completions "" table))))
          (routes-test--expect capf "eglot-completion-at-point returned nil")
          (dolist (screen '("Home" "Settings" "Detail" "Login"))
            (routes-test--expect (member screen labels) "completion lacks %s; got %S" screen labels))
          (routes-test--expect (not (member "appStore" labels))
                               "completion after `screen ' lists a dependency: %S" labels))))

    (routes-test--check "formatting: eglot-format-buffer lays the file out as `routes fmt' does, also on save"
      (routes-test--expect server "no server")
      (let ((messy-file (expand-file-name "Messy.routes" tmp))
            (messy "screen   Home\nroot {\nscreen Home {\n  anyOf { screen Home\n screen Home }\n}\n}\n")
            (formatted "screen Home\nroot {\n  screen Home {\n    anyOf {\n      screen Home\n      screen Home\n    }\n  }\n}\n"))
        (routes-test--write messy-file messy)
        (let ((buffer (find-file-noselect messy-file)))
          (switch-to-buffer buffer)
          (with-current-buffer buffer
            (routes-test--expect (routes-test--wait 10 #'eglot-managed-p) "Messy.routes not managed")
            (routes-test--expect (eglot--server-capable :documentFormattingProvider)
                                 "server announced no documentFormattingProvider")
            (let ((jsonrpc-default-request-timeout (routes-test--remaining 10)))
              (eglot-format-buffer))
            (routes-test--expect (equal (buffer-string) formatted) "formatted:\n%s" (buffer-string))
            ;; Format on save, as Editors/emacs/README.md sets it up.
            (add-hook 'before-save-hook #'eglot-format-buffer nil t)
            (erase-buffer)
            (insert messy)
            (routes-test--command-loop-tick)
            (let ((jsonrpc-default-request-timeout (routes-test--remaining 10)))
              (save-buffer))
            (routes-test--expect (equal (with-temp-buffer (insert-file-contents messy-file) (buffer-string)) formatted)
                                 "saved:\n%s" (with-temp-buffer (insert-file-contents messy-file) (buffer-string)))))))

    (routes-test--check "links: Flymake shows an unbuildable link, and hover gives a link's condition"
      (routes-test--expect server "no server")
      (let ((links-file (expand-file-name "Links.routes" tmp)))
        (routes-test--write links-file routes-test--links)
        (let ((buffer (find-file-noselect links-file)))
          (switch-to-buffer buffer)
          (with-current-buffer buffer
            (routes-test--expect (routes-test--wait 10 #'eglot-managed-p) "Links.routes not managed")
            (let* ((unbuildable (lambda ()
                                  (cl-find-if (lambda (d)
                                                (string-match-p "\\[unbuildable-link\\]" (flymake-diagnostic-text d)))
                                              (flymake-diagnostics (point-min) (point-max)))))
                   (found (routes-test--wait 15 unbuildable server)))
              (routes-test--expect found "no unbuildable-link diagnostic among %S"
                                   (mapcar #'flymake-diagnostic-text (flymake-diagnostics (point-min) (point-max))))
              (routes-test--expect (= (line-number-at-pos (flymake-diagnostic-beg found))
                                      7)
                                   "unbuildable-link on line %d, expected 7 (`link admin')" (line-number-at-pos (flymake-diagnostic-beg found)))
              (routes-test--expect (string-match-p "Admin" (flymake-diagnostic-text found))
                                   "message %S" (flymake-diagnostic-text found)))
            ;; What `eldoc' asks at point, over the link's name.
            (goto-char (point-min))
            (re-search-forward "^link it")
            (let* ((jsonrpc-default-request-timeout (routes-test--remaining 10))
                   (reply (jsonrpc-request server :textDocument/hover (eglot--TextDocumentPositionParams)))
                   (contents (plist-get reply :contents))
                   (text (if (stringp contents) contents (plist-get contents :value))))
              (routes-test--expect (stringp text) "no hover on the link: %S" reply)
              (routes-test--expect (string-match-p (regexp-quote "/items/{id}") text) "hover lacks the pattern: %s" text)
              (routes-test--expect (string-match-p "isPro" text) "hover lacks the condition: %s" text)
              (routes-test--expect (string-match-p "for subscribers" text) "hover lacks the doc comment: %s" text))))))))

;;; test-routes.el ends here

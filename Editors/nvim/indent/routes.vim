" Indentation for `.routes` files: one 'shiftwidth' per open bracket
" (`{`, `(`, `[`); a line that starts with a closing bracket dedents.
if exists('b:did_indent')
  finish
endif
let b:did_indent = 1

setlocal indentexpr=GetRoutesIndent(v:lnum)
setlocal indentkeys=0},0),0],!^F,o,O
setlocal nolisp nosmartindent nocindent autoindent

let b:undo_indent = 'setlocal indentexpr< indentkeys< lisp< smartindent< cindent< autoindent<'

if exists('*GetRoutesIndent')
  finish
endif

" The code of a line: strings and comments removed.
function! s:Code(lnum) abort
  let line = getline(a:lnum)
  let line = substitute(line, '"\%(\\.\|[^"\\]\)*"', '""', 'g')
  return substitute(line, '//.*$', '', '')
endfunction

function! GetRoutesIndent(lnum) abort
  let prev = prevnonblank(a:lnum - 1)
  if prev == 0
    return 0
  endif
  let code = s:Code(prev)
  " Closers at the start of the previous line already dedented it.
  let leading_closers = strlen(substitute(matchstr(code, '^\s*\%([\])}]\s*\)*'), '\s', '', 'g'))
  let opens = strlen(substitute(code, '[^\[({]', '', 'g'))
  let closes = strlen(substitute(code, '[^\])}]', '', 'g')) - leading_closers
  let ind = indent(prev) + shiftwidth() * (opens - closes)
  if getline(a:lnum) =~# '^\s*[\])}]'
    let ind -= shiftwidth()
  endif
  return max([ind, 0])
endfunction

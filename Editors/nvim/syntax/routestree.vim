" Syntax for the routing-tree preview opened by :RoutesPreview.
if exists('b:current_syntax')
  finish
endif

syntax match routestreeGuide      /[│├└─]/
syntax match routestreeLabel      /\<\%(true\|false\|then\|else\):/
syntax match routestreeKeyword    /\<\%(root\|anyOf\|conditional\|if let\|if screen\|wildcard\|empty\|uses\)\>/
syntax match routestreeRecursion  /↻ \h\w*/
syntax match routestreePresentation /(\%(sheet\|cover\|popover\|push\)[^)]*)/
syntax match routestreeHeader     /^environment:.*$/
syntax match routestreeBuiltAt    /\<built at\>/
syntax match routestreeNotBuilt   /\<not built:.*$/

highlight default link routestreeGuide        NonText
highlight default link routestreeLabel        Label
highlight default link routestreeKeyword      Keyword
highlight default link routestreeRecursion    Special
highlight default link routestreePresentation StorageClass
highlight default link routestreeHeader       Comment
highlight default link routestreeBuiltAt     Comment
highlight default link routestreeNotBuilt     WarningMsg

let b:current_syntax = 'routestree'

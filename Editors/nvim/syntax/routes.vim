" Syntax highlighting for `.routes` files (ComposableNavigator navigation trees).
if exists('b:current_syntax')
  finish
endif

syntax case match

" Keywords are matches, not `syntax keyword`s, so that a keyword used as a
" parameter or argument label (`screen Transfer(from: Account)`) can be
" highlighted as a label by the later, higher-priority `routesLabel` match.
syntax match routesDeclKeyword    /\<\%(import\|screen\|dependency\|optional\|flag\|builder\|root\)\>/
syntax match routesBuilderKeyword /\<\%(anyOf\|conditional\|else\|if\|let\|wildcard\|empty\|uses\|from\)\>/
syntax match routesPresentation   /\<\%(push\|sheet\|allowsPush\)\>/
" `cover` and `popover` after a screen's declaration, and `as PRESENTATION` after a
" screen node's name: words with a meaning only there.
syntax match routesPresentation   /\%(^\s*screen\s\+\h\w*\s*\%(([^)]*)\s*\)\?\)\@<=\<\%(cover\|popover\)\>/
syntax match routesAsKeyword      /\%(\<screen\s\+\h\w*\s\+\)\@<=as\ze\s\+\%(push\|sheet\|cover\|popover\)\>/
syntax match routesPresentation   /\%(\<screen\s\+\h\w*\s\+as\s\+\)\@<=\%(cover\|popover\)\>/
syntax match routesBoolean        /\<\%(true\|false\)\>/

" Names introduced by a declaration, and screen names where a screen is expected.
syntax match routesDeclName   /\%(\<\%(dependency\|optional\|flag\|builder\)\s\+\)\@<=\h\w*/
" `link NAME "PATTERN" -> PATH`: `link` is a keyword only at the start of a line before a
" name or a string; the pattern's placeholders and the path's arrow stand out.
syntax match routesLinkKeyword /^\s*\zslink\ze\s\+\%(\h\w*\s\+\)\?"/
syntax match routesLinkName    /\%(^\s*link\s\+\)\@<=\h\w*\ze\s\+"/
syntax match routesArrow       /->/
syntax match routesPlaceholder contained /{\h\w*?\?}/
syntax match routesScreenName /\%(\<\%(screen\|wildcard\|from\)\s\+\)\@<=\h\w*/
" Swift type names after `name:`.
syntax match routesType /\%(:\s*\)\@<=\[\?\u[A-Za-z0-9_.]*/
syntax match routesLabel /\<\h\w*\ze\s*:/

syntax match routesNumber /\<-\?\d\+\%(\.\d\+\)\?\>/
syntax match routesEscape contained /\\\%(["\\nt]\|u{\x\+}\)/
syntax region routesString start=/"/ skip=/\\\\\|\\"/ end=/"/ oneline contains=routesEscape,routesPlaceholder

syntax keyword routesTodo contained TODO FIXME XXX NOTE
syntax match routesComment    /\/\/.*$/  contains=routesTodo,@Spell
syntax match routesDocComment /\/\/\/.*$/ contains=routesTodo,@Spell

highlight default link routesDeclKeyword    Keyword
highlight default link routesLinkKeyword    Keyword
highlight default link routesLinkName       Constant
highlight default link routesArrow          Operator
highlight default link routesPlaceholder    Identifier
highlight default link routesBuilderKeyword Statement
highlight default link routesPresentation   StorageClass
highlight default link routesAsKeyword      Keyword
highlight default link routesBoolean        Boolean
highlight default link routesDeclName       Identifier
highlight default link routesScreenName     Type
highlight default link routesType           Type
highlight default link routesLabel          Identifier
highlight default link routesNumber         Number
highlight default link routesString         String
highlight default link routesEscape         SpecialChar
highlight default link routesTodo           Todo
highlight default link routesComment        Comment
highlight default link routesDocComment     SpecialComment

let b:current_syntax = 'routes'

" `.routes` files (ComposableNavigator navigation trees) have filetype `routes`.
autocmd BufRead,BufNewFile *.routes setfiletype routes

import SeedApp

// Builds a few paths of the seed app, through its `Root`, as ComposableNavigator builds them
// when it draws the app, and prints what each element is built with. Linux only (the
// stand-ins' inspection: see Sources/SeedApp/Demo.swift).
for line in seedDemo() {
    print(line)
}

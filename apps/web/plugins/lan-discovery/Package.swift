// swift-tools-version: 5.9
import PackageDescription

// The project's own Capacitor plugin (docs/mobile.md "Camera discovery"), added to CapApp-SPM by `npm run mobile:sync`.
let package = Package(
    name: "HomesitterLanDiscovery",
    platforms: [.iOS(.v15)],
    products: [
        .library(
            name: "HomesitterLanDiscovery",
            targets: ["LanDiscoveryPlugin"])
    ],
    dependencies: [
        .package(url: "https://github.com/ionic-team/capacitor-swift-pm.git", from: "8.0.0")
    ],
    targets: [
        .target(
            name: "LanDiscoveryPlugin",
            dependencies: [
                .product(name: "Capacitor", package: "capacitor-swift-pm"),
                .product(name: "Cordova", package: "capacitor-swift-pm")
            ],
            path: "ios/Sources/LanDiscoveryPlugin")
    ]
)

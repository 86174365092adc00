public import Foundation

/// A package manifest as `swift package dump-package` describes it, plus
/// where it lives.
///
/// Only the parts the contracts need are decoded. Decoding is lenient about
/// keys it does not know, because the JSON grows with each toolchain.
public struct PackageManifest: Sendable, Equatable {
    /// The package's `name:`.
    public let name: String
    /// Absolute path of the package directory.
    public let directory: String
    /// Package dependencies (`.package(path:)` and others).
    public let dependencies: [PackageReference]
    /// Products the package vends.
    public let products: [ProductDeclaration]
    /// Targets the package declares.
    public let targets: [TargetDeclaration]
    /// The tools version of the manifest SwiftPM evaluated (`6.0.0`), which
    /// tells which of `Package.swift` and `Package@swift-….swift` it read.
    public let toolsVersion: String?

    /// Creates a manifest record directly (tests build small ones by hand).
    public init(
        name: String, directory: String, dependencies: [PackageReference] = [],
        products: [ProductDeclaration] = [], targets: [TargetDeclaration] = [], toolsVersion: String? = nil
    ) {
        self.name = name
        self.directory = directory
        self.dependencies = dependencies
        self.products = products
        self.targets = targets
        self.toolsVersion = toolsVersion
    }

    /// Decodes the JSON printed by `swift package dump-package`.
    ///
    /// The shapes read are: `dependencies[] = {"fileSystem"|"sourceControl"|
    /// "registry": [{identity, path?, nameForTargetDependencyResolutionOnly?}]}`,
    /// `products[] = {name, targets}`, `targets[] = {name, type, path?,
    /// exclude, sources?, pkgConfig?, dependencies}` and target dependencies
    /// `{"byName": [name, condition]}`, `{"target": [name, condition]}`,
    /// `{"product": [name, package, moduleAliases, condition]}`.
    /// - Parameters:
    ///   - json: the standard output of `dump-package`.
    ///   - directory: the package directory the dump is of.
    /// - Throws: ``ArchCheckError/invalidDump(package:reason:)`` when the
    ///   JSON is malformed or lacks required keys.
    public static func decode(json: Data, directory: String) throws -> PackageManifest {
        func invalid(_ reason: String) -> ArchCheckError {
            .invalidDump(package: directory, reason: reason)
        }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: json)
        } catch {
            throw invalid("not JSON (\(error.localizedDescription))")
        }
        guard let root = object as? [String: Any], let name = root["name"] as? String else {
            throw invalid("no package name")
        }

        var dependencies: [PackageReference] = []
        for entry in root["dependencies"] as? [[String: Any]] ?? [] {
            guard let (_, value) = entry.first, let details = (value as? [Any])?.first as? [String: Any],
                let identity = details["identity"] as? String
            else { throw invalid("unreadable package dependency \(entry)") }
            dependencies.append(
                PackageReference(
                    identity: identity,
                    nameAlias: details["nameForTargetDependencyResolutionOnly"] as? String,
                    path: details["path"] as? String))
        }

        let products = (root["products"] as? [[String: Any]] ?? []).compactMap { product -> ProductDeclaration? in
            guard let productName = product["name"] as? String else { return nil }
            return ProductDeclaration(name: productName, targets: product["targets"] as? [String] ?? [])
        }

        var targets: [TargetDeclaration] = []
        for target in root["targets"] as? [[String: Any]] ?? [] {
            guard let targetName = target["name"] as? String, let typeName = target["type"] as? String else {
                throw invalid("a target without name or type")
            }
            guard let type = TargetType(rawValue: typeName) else {
                throw invalid("target \(targetName) has unknown type \(typeName)")
            }
            var targetDependencies: [TargetDependency] = []
            for dependency in target["dependencies"] as? [[String: Any]] ?? [] {
                targetDependencies.append(try decodeDependency(dependency, invalid: invalid))
            }
            targets.append(
                TargetDeclaration(
                    name: targetName, type: type, path: target["path"] as? String,
                    exclude: target["exclude"] as? [String] ?? [], sources: target["sources"] as? [String],
                    resources: (target["resources"] as? [[String: Any]] ?? []).compactMap { $0["path"] as? String },
                    pkgConfig: target["pkgConfig"] as? String, dependencies: targetDependencies))
        }
        return PackageManifest(
            name: name, directory: directory, dependencies: dependencies, products: products, targets: targets,
            toolsVersion: (root["toolsVersion"] as? [String: Any])?["_version"] as? String)
    }

    private static func decodeDependency(
        _ dependency: [String: Any], invalid: (String) -> ArchCheckError
    ) throws -> TargetDependency {
        guard let (kind, value) = dependency.first, let fields = value as? [Any],
            let name = fields.first as? String
        else { throw invalid("unreadable target dependency \(dependency)") }
        switch kind {
        case "byName":
            return .byName(name)
        case "target":
            return .target(name)
        case "product":
            return .product(name: name, package: fields.count > 1 ? fields[1] as? String : nil)
        default:
            throw invalid("unknown target dependency kind \(kind)")
        }
    }
}

"""What `make apple-check` compiles, read from the manifests rather than repeated here.

`swift package dump-package` gives each package's targets with their dependencies, the conditions
on those (platforms, traits) and their settings, its products, traits, platforms and language
modes; `swift package describe --type json` gives each target's folder, its source files (with the
manifest's `exclude` and SwiftPM's own rules applied) and its resources. From the two, for one
platform (`ios`) and one set of traits, `build_plan` lists the modules to compile in dependency
order, each with its sources and the flags SwiftPM would give it, and what the root package's
library products leave out. The dependency packages are read the same way from their checkouts
(the root's .build, else a `swift package resolve` into the scratch folder).

A package that is not checked out (one behind a trait that is off where the manifest is read, as
agisboye/CLMDB on Linux) has no manifest to read: its product is a `stand-in` module, and the
caller says what stands in for it, or stops.
"""

import json
import os
import re
import subprocess


class SetupError(Exception):
    pass


# agisboye/CLMDB's LMDB product (behind BundledLMDB): LMDB 0.9's C, which lmdb-objects.py compiles,
# linked into the module that depends on it (required-reasons.py), never resolved on Linux.
BUNDLED_LMDB = ("clmdb", "LMDB")


def swiftpm_json(swift, package_dir, *command, scratch=None):
    env = {k: v for k, v in os.environ.items() if k != "ROUTELOG_DOCS"}  # the manifest as an app reads it
    args = [swift, "package", "--package-path", package_dir] + (["--scratch-path", scratch] if scratch else [])
    out = subprocess.run(args + list(command), capture_output=True, text=True, env=env)
    if out.returncode != 0:
        raise SetupError(f"swift package {' '.join(command)} in {package_dir} failed: {out.stderr.strip()[-500:]}")
    return json.loads(out.stdout) if command[0] != "resolve" else None


def c99(name):
    return re.sub(r"[^A-Za-z0-9_]", "_", name)


class Package:
    def __init__(self, swift, path, identity, is_root):
        self.path, self.identity, self.is_root = path, identity, is_root
        self.dump = swiftpm_json(swift, path, "dump-package")
        self.described = {t["name"]: t for t in swiftpm_json(swift, path, "describe", "--type", "json")["targets"]}
        self.targets = {t["name"]: t for t in self.dump["targets"]}
        self.products = {p["name"]: p for p in self.dump["products"]}
        self.traits = {t["name"]: t for t in self.dump.get("traits") or []}
        self.dependencies = [next(iter(d.values()))[0]["identity"] for d in self.dump["dependencies"]]

    def default_traits(self):
        """The traits a dependent gets when it asks for none: the `default` trait's, transitively."""
        enabled, todo = set(), list((self.traits.get("default") or {}).get("enabledTraits", []))
        while todo:
            t = todo.pop()
            if t not in enabled:
                enabled.add(t)
                todo.extend((self.traits.get(t) or {}).get("enabledTraits", []))
        return enabled

    def swift_version(self, target=None):
        for setting in (target or {}).get("settings", []):
            if "swiftLanguageMode" in setting["kind"]:
                return setting["kind"]["swiftLanguageMode"]["_0"]
        modes = self.dump.get("swiftLanguageVersions")
        if modes:
            return max(modes, key=lambda m: [int(x) for x in m.split(".")])
        return "6" if int(self.dump["toolsVersion"]["_version"].split(".")[0]) >= 6 else "5"


class Module:
    """One module to compile (kind swift, clang or system), or a stand-in for an unresolved product.
    `products`: the (package identity, product) names it is depended on as."""

    def __init__(self, name, kind, identity, package=None, target=None, deps=()):
        self.name, self.kind, self.identity, self.package, self.target = name, kind, identity, package, target or name
        self.directory, self.sources, self.flags, self.search, self.resources = None, [], [], [], []
        self.deps, self.products = list(deps), set()

    @property
    def own(self):
        return self.package is not None and self.package.is_root


def holds(condition, platform, traits, config="debug"):
    if not condition:
        return True
    if condition.get("platformNames") and platform not in condition["platformNames"]:
        return False
    if condition.get("traits") and not set(condition["traits"]) & traits:
        return False
    if condition.get("config") and condition["config"] != config:
        return False
    return True


def swift_flags(package, target, platform, traits):
    """The flags SwiftPM gives a Swift target in a debug build: language mode, package name, the
    SWIFT_PACKAGE and DEBUG conditions, the package's enabled traits, and the target's settings."""
    flags = ["-swift-version", package.swift_version(target), "-package-name", c99(package.identity),
             "-DSWIFT_PACKAGE", "-DDEBUG", "-Onone"]
    flags += [f"-D{t}" for t in sorted(traits)]
    for setting in target.get("settings", []):
        if setting["tool"] != "swift" or not holds(setting.get("condition"), platform, traits):
            continue
        (kind, value), = setting["kind"].items()
        value = value.get("_0") if isinstance(value, dict) else value
        if kind == "enableUpcomingFeature":
            flags += ["-enable-upcoming-feature", value]
        elif kind == "enableExperimentalFeature":
            flags += ["-enable-experimental-feature", value]
        elif kind == "define":
            flags.append(f"-D{value}")
        elif kind == "unsafeFlags":
            flags += value
        elif kind == "swiftLanguageMode":
            pass
        else:
            raise SetupError(f"target {target['name']} of {package.identity} has a Swift setting this check does not map ({kind}): add it to Tools/AppleCheck/package_graph.py")
    return flags


class Graph:
    def __init__(self, swift, root, scratch, platform, traits=None):
        self.swift, self.platform, self.scratch = swift, platform, scratch
        self.root = Package(swift, root, os.path.basename(root).lower(), True)
        self.traits = {self.root.identity: set(self.root.traits) - {"default"} if traits is None else set(traits)}
        self.checkouts, self.resolved = self._read_checkouts(os.path.join(root, ".build")), False
        self.packages = {self.root.identity: self.root}
        self.modules, self.order = {}, []

    @staticmethod
    def _read_checkouts(state_dir):
        """{identity: checkout folder} of the packages resolved into `state_dir`."""
        path = os.path.join(state_dir, "workspace-state.json")
        if not os.path.isfile(path):
            return {}
        deps = json.load(open(path))["object"]["dependencies"]
        found = {d["packageRef"]["identity"]: os.path.join(state_dir, "checkouts", d["subpath"]) for d in deps}
        return {k: v for k, v in found.items() if os.path.isfile(os.path.join(v, "Package.swift"))}

    def _resolve(self):
        """The checkouts of a resolve of our own into SCRATCH/spm, done again when the manifest has
        changed since (for a package the root's .build does not hold, or holds no more)."""
        spm = os.path.join(self.scratch, "spm")
        state = os.path.join(spm, "workspace-state.json")
        if not os.path.exists(state) or os.path.getmtime(state) < os.path.getmtime(os.path.join(self.root.path, "Package.swift")):
            print(f"== resolving the package's dependencies into {spm}", flush=True)
            swiftpm_json(self.swift, self.root.path, "resolve", scratch=spm)
            os.utime(state)
        return self._read_checkouts(spm)

    def package(self, identity):
        """The dependency package `identity`, from its checkout, or None when it has none (behind a
        trait or platform that is off where the manifest is read)."""
        if identity not in self.packages:
            if identity not in self.checkouts and not self.resolved:
                self.checkouts, self.resolved = {**self._resolve(), **self.checkouts}, True
            path = self.checkouts.get(identity)
            self.packages[identity] = Package(self.swift, path, identity, False) if path else None
        return self.packages[identity]

    def add_target(self, package, name):
        key = (package.identity, name)
        if key in self.modules:
            return self.modules[key]
        target, described = package.targets[name], package.described[name]
        traits = self.traits.setdefault(package.identity, package.default_traits())
        deps = []
        for dep in target["dependencies"]:
            (form, value), = dep.items()
            condition = value[-1] if form == "product" else value[1]
            if not holds(condition, self.platform, traits):
                continue
            if form == "product":  # the package as the manifest spells it; its identity is lower-case
                deps.append(self.add_product(value[1].lower(), value[0]))
            elif form == "target" or value[0] in package.targets:
                deps.append(self.add_target(package, value[0]))
            else:  # byName: a product of a dependency package
                owner = next((p for p in map(self.package, package.dependencies) if p and value[0] in p.products), None)
                if owner is None:
                    raise SetupError(f"target {name} of {package.identity} depends on {value[0]}, which no checked-out package offers")
                deps.append(self.add_product(owner.identity, value[0]))
        directory = os.path.join(package.path, described["path"])
        kind = {"SwiftTarget": "swift", "ClangTarget": "clang", "SystemLibraryTarget": "system"}.get(described["module_type"])
        if kind is None:
            raise SetupError(f"target {name} of {package.identity} is a {described['module_type']}, which this check does not compile")
        module = Module(described["c99name"], kind, package.identity, package, name, deps=[m.name for m in deps])
        module.directory = directory
        if kind == "swift":
            module.sources = [os.path.join(directory, s) for s in described["sources"]]
            module.flags = swift_flags(package, target, self.platform, traits)
        elif kind == "clang":
            module.search = [os.path.join(directory, target.get("publicHeadersPath") or "include")]
        else:
            module.search = [directory]
        module.resources = [r["path"] for r in described.get("resources", [])]
        self.modules[key] = module
        self.order.append(module)
        return module

    def reach(self, module):
        """The modules `module` depends on, directly or not, in build order."""
        names, todo = set(), list(module.deps)
        while todo:
            n = todo.pop()
            if n not in names:
                names.add(n)
                todo.extend(next(m for m in self.order if m.name == n).deps)
        return [m for m in self.order if m.name in names]

    def add_product(self, identity, product):
        package = self.package(identity)
        if package is None:
            key = (identity, product)
            if key not in self.modules:
                self.modules[key] = Module(product, "stand-in", identity)
                self.order.append(self.modules[key])
            self.modules[key].products.add(key)
            return self.modules[key]
        if product not in package.products:
            raise SetupError(f"package {identity} has no product {product}")
        modules = [self.add_target(package, t) for t in package.products[product]["targets"]]
        if len(modules) == 1:
            modules[0].products.add((identity, product))
            return modules[0]
        raise SetupError(f"product {product} of {identity} has {len(modules)} targets; this check expects one")


def library_targets(package):
    """The targets of the root's library products, in the manifest's order."""
    names = []
    for product in package.dump["products"]:
        if "library" in product["type"]:
            names += [t for t in product["targets"] if t not in names]
    return [t["name"] for t in package.dump["targets"] if t["name"] in names]


TEST_ONLY_IMPORT = re.compile(r"^\s*(?:@_exported\s+|@testable\s+|(?:public|package|internal)\s+)?import\s+(Testing|XCTest)\b", re.M)


def build_plan(swift, root, scratch, platform, traits=None):
    """(graph, the root library modules to check, skipped {target: why}); graph.order holds them
    and what they reach, in dependency order."""
    graph = Graph(swift, root, scratch, platform, traits)
    checked, skipped = [], {}
    for name in library_targets(graph.root):
        described = graph.root.described[name]
        test_only = sorted({m.group(1) for s in described["sources"]
                            for m in TEST_ONLY_IMPORT.finditer(open(os.path.join(root, described["path"], s), encoding="utf-8").read())})
        if test_only:
            skipped[name] = f"imports {' and '.join(test_only)}, which an iPhoneOS SDK does not hold: a test target links it, not an app"
            continue
        checked.append(graph.add_target(graph.root, name))
    return graph, checked, skipped

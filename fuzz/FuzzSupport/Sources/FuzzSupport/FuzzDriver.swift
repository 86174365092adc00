/// The signature libFuzzer calls for each input.
public typealias FuzzTarget = @convention(c) (UnsafePointer<UInt8>, Int) -> CInt

@_silgen_name("LLVMFuzzerRunDriver")
private func llvmFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: FuzzTarget
) -> CInt

/// Runs libFuzzer over `target` with the process's arguments.
///
/// SwiftPM links an executable with `main` aliased to `<Target>_main`, so
/// libFuzzer's own `main` never runs; each fuzzer defines that symbol and
/// calls this instead (LLVMFuzzerRunDriver, libFuzzer's documented entry
/// for programs that own `main`).
/// - Returns: libFuzzer's exit status (non-zero after a crash or leak).
public func runFuzzer(
    argc: CInt, argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, target: FuzzTarget
) -> CInt {
    var count = argc
    var arguments = argv
    return llvmFuzzerRunDriver(&count, &arguments, target)
}

/// The input as an array, copied once.
public func fuzzBytes(_ data: UnsafePointer<UInt8>, _ size: Int) -> [UInt8] {
    Array(UnsafeBufferPointer(start: data, count: size))
}

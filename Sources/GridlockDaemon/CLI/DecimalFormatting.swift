/// `value` with a fixed number of decimals ("12.345"), without Foundation's formatters.
public func fixedDecimal(_ value: Double, decimals: Int) -> String {
    var scale = 1
    for _ in 0..<decimals { scale *= 10 }
    let scaled = Int((value * Double(scale)).rounded())
    let sign = scaled < 0 ? "-" : ""
    let whole = abs(scaled) / scale
    guard decimals > 0 else { return sign + String(whole) }
    let fraction = String(abs(scaled) % scale)
    return "\(sign)\(whole).\(String(repeating: "0", count: decimals - fraction.count))\(fraction)"
}

// Text forms of floating-point values as the different consumers print them.
#pragma once

#include <string>

namespace tessel::numfmt {

// cqlsh's format_floating_point_type with the given precision (5 for float,
// 12 for double by default): "1.5", "0.1", "1e+20", "NaN", "Infinity", "-Infinity".
std::string cqlsh_float(double v, int precision);
// Python repr of the shortest round-tripping form ("1.5", "1e+20", "1.0", "NaN",
// "Infinity", "-Infinity"); is_float32 selects float32 shortest digits. Parses back
// as a CQL float literal.
std::string python_repr(double v, bool is_float32);
// Java Float.toString / Double.toString ("1.0", "1.5E-5", "1.0E20", "NaN", "Infinity").
std::string java_to_string(double v, bool is_float32);

}  // namespace tessel::numfmt

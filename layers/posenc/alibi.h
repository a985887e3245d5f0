// layers/posenc/alibi.h: the ALiBi head slopes, exposed for tests and analysis.
#pragma once

#include <cstdint>
#include <vector>

namespace ordo {

// Slopes m_1..m_H of Press et al. (2022): m_h = 2^(-8h/H) when H is a power of two;
// otherwise the H' = 2^floor(log2 H) slopes of H', then every other slope of 2H' (the odd
// ones, m = 2^(-8(2j+1)/(2H'))) until there are H. E.g. H = 6: 2^-2, 2^-4, 2^-6, 2^-8,
// 2^-1, 2^-3.
std::vector<double> alibi_slopes(int64_t heads);

}  // namespace ordo

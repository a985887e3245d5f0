# bin_majority_lengths.gp: accuracy against evaluation length, task bin_majority
# Written by ordo; edit freely and redraw with: gnuplot bin_majority_lengths.gp (writes bin_majority_lengths.png and bin_majority_lengths.svg)
set encoding utf8
do for [format in "png svg"] {
reset
if (format eq "png") {
  set terminal pngcairo size 1610,1110 font "sans,11" noenhanced
} else {
  set terminal svg size 1610,1110 font "sans,11" noenhanced background "#ffffff"
}
set output "bin_majority_lengths." . format
set multiplot title "bin_majority: accuracy against evaluation length (final evaluation; band: min-max over seeds; dotted: the longest training length; grey: the others)" font ",13"
set grid
unset key
set logscale x 2
set xrange [20.4:187.5]
set xtics ("train\n(1-50)" 25.5, "51" 51, "71" 71, "99" 99, "3x\n(150)" 150)
set xlabel offset 0,-0.6
set yrange [0:1.02]
set ytics 0,0.2
set arrow from 50, graph 0 to 50, graph 1 nohead dt 3 lc rgb "#666666"
set lmargin at screen 0.04968944099; set rmargin at screen 0.2134161491; set bmargin at screen 0.7599099099; set tmargin at screen 0.9369369369
set title "sinusoidal" font ",12" offset 0,-0.4
set xtics ("" 25.5, "" 51, "" 71, "" 99, "" 150)
set format x ""
set format y "%g"
set xlabel ""
set ylabel "accuracy"
plot "bin_majority_lengths.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 14 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 15 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 16 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 0 using 1:3:4 with filledcurves lc rgb "#000000" fs transparent solid 0.15 noborder notitle, \
     "bin_majority_lengths.dat" index 0 using 1:2 with linespoints lc rgb "#000000" lw 2 dt 1 pt 7 ps 0.9 pi 12 notitle, \
     0.5 with lines dt 2 lc rgb "#555555" lw 1 notitle
set lmargin at screen 0.2432298137; set rmargin at screen 0.4069565217; set bmargin at screen 0.7599099099; set tmargin at screen 0.9369369369
set title "rope" font ",12" offset 0,-0.4
set xtics ("" 25.5, "" 51, "" 71, "" 99, "" 150)
set format x ""
set format y ""
set xlabel ""
set ylabel ""
plot "bin_majority_lengths.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 14 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 15 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 16 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 1 using 1:3:4 with filledcurves lc rgb "#E69F00" fs transparent solid 0.15 noborder notitle, \
     "bin_majority_lengths.dat" index 1 using 1:2 with linespoints lc rgb "#E69F00" lw 2 dt 1 pt 5 ps 0.9 pi 12 notitle, \
     0.5 with lines dt 2 lc rgb "#555555" lw 1 notitle
set lmargin at screen 0.4367701863; set rmargin at screen 0.6004968944; set bmargin at screen 0.7599099099; set tmargin at screen 0.9369369369
set title "alibi" font ",12" offset 0,-0.4
set xtics ("" 25.5, "" 51, "" 71, "" 99, "" 150)
set format x ""
set format y ""
set xlabel ""
set ylabel ""
plot "bin_majority_lengths.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 14 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 15 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 16 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 2 using 1:3:4 with filledcurves lc rgb "#56B4E9" fs transparent solid 0.15 noborder notitle, \
     "bin_majority_lengths.dat" index 2 using 1:2 with linespoints lc rgb "#56B4E9" lw 2 dt 1 pt 9 ps 0.9 pi 12 notitle, \
     0.5 with lines dt 2 lc rgb "#555555" lw 1 notitle
set lmargin at screen 0.630310559; set rmargin at screen 0.7940372671; set bmargin at screen 0.7599099099; set tmargin at screen 0.9369369369
set title "t5" font ",12" offset 0,-0.4
set xtics ("" 25.5, "" 51, "" 71, "" 99, "" 150)
set format x ""
set format y ""
set xlabel ""
set ylabel ""
plot "bin_majority_lengths.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 14 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 15 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 16 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 3 using 1:3:4 with filledcurves lc rgb "#009E73" fs transparent solid 0.15 noborder notitle, \
     "bin_majority_lengths.dat" index 3 using 1:2 with linespoints lc rgb "#009E73" lw 2 dt 1 pt 13 ps 0.9 pi 12 notitle, \
     0.5 with lines dt 2 lc rgb "#555555" lw 1 notitle
set lmargin at screen 0.8238509317; set rmargin at screen 0.9875776398; set bmargin at screen 0.7599099099; set tmargin at screen 0.9369369369
set title "rbf" font ",12" offset 0,-0.4
set xtics ("" 25.5, "" 51, "" 71, "" 99, "" 150)
set format x ""
set format y ""
set xlabel ""
set ylabel ""
plot "bin_majority_lengths.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 14 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 15 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 16 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 4 using 1:3:4 with filledcurves lc rgb "#0072B2" fs transparent solid 0.15 noborder notitle, \
     "bin_majority_lengths.dat" index 4 using 1:2 with linespoints lc rgb "#0072B2" lw 2 dt 1 pt 3 ps 0.9 pi 12 notitle, \
     0.5 with lines dt 2 lc rgb "#555555" lw 1 notitle
set lmargin at screen 0.04968944099; set rmargin at screen 0.2134161491; set bmargin at screen 0.5306306306; set tmargin at screen 0.7076576577
set title "cyclic" font ",12" offset 0,-0.4
set xtics ("" 25.5, "" 51, "" 71, "" 99, "" 150)
set format x ""
set format y "%g"
set xlabel ""
set ylabel "accuracy"
plot "bin_majority_lengths.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 14 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 15 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 16 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 5 using 1:3:4 with filledcurves lc rgb "#D55E00" fs transparent solid 0.15 noborder notitle, \
     "bin_majority_lengths.dat" index 5 using 1:2 with linespoints lc rgb "#D55E00" lw 2 dt 1 pt 2 ps 0.9 pi 12 notitle, \
     0.5 with lines dt 2 lc rgb "#555555" lw 1 notitle
set lmargin at screen 0.2432298137; set rmargin at screen 0.4069565217; set bmargin at screen 0.5306306306; set tmargin at screen 0.7076576577
set title "fourier2d" font ",12" offset 0,-0.4
set xtics ("" 25.5, "" 51, "" 71, "" 99, "" 150)
set format x ""
set format y ""
set xlabel ""
set ylabel ""
plot "bin_majority_lengths.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 14 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 15 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 16 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 6 using 1:3:4 with filledcurves lc rgb "#CC79A7" fs transparent solid 0.15 noborder notitle, \
     "bin_majority_lengths.dat" index 6 using 1:2 with linespoints lc rgb "#CC79A7" lw 2 dt 1 pt 1 ps 0.9 pi 12 notitle, \
     0.5 with lines dt 2 lc rgb "#555555" lw 1 notitle
set lmargin at screen 0.4367701863; set rmargin at screen 0.6004968944; set bmargin at screen 0.5306306306; set tmargin at screen 0.7076576577
set title "kerple_log" font ",12" offset 0,-0.4
set xtics ("" 25.5, "" 51, "" 71, "" 99, "" 150)
set format x ""
set format y ""
set xlabel ""
set ylabel ""
plot "bin_majority_lengths.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 14 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 15 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 16 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 7 using 1:3:4 with filledcurves lc rgb "#000000" fs transparent solid 0.15 noborder notitle, \
     "bin_majority_lengths.dat" index 7 using 1:2 with linespoints lc rgb "#000000" lw 2 dt (10,5) pt 5 ps 0.9 pi 12 notitle, \
     0.5 with lines dt 2 lc rgb "#555555" lw 1 notitle
set lmargin at screen 0.630310559; set rmargin at screen 0.7940372671; set bmargin at screen 0.5306306306; set tmargin at screen 0.7076576577
set title "kerple_power" font ",12" offset 0,-0.4
set xtics ("" 25.5, "" 51, "" 71, "" 99, "" 150)
set format x ""
set format y ""
set xlabel ""
set ylabel ""
plot "bin_majority_lengths.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 14 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 15 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 16 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 8 using 1:3:4 with filledcurves lc rgb "#E69F00" fs transparent solid 0.15 noborder notitle, \
     "bin_majority_lengths.dat" index 8 using 1:2 with linespoints lc rgb "#E69F00" lw 2 dt (10,5) pt 9 ps 0.9 pi 12 notitle, \
     0.5 with lines dt 2 lc rgb "#555555" lw 1 notitle
set lmargin at screen 0.8238509317; set rmargin at screen 0.9875776398; set bmargin at screen 0.5306306306; set tmargin at screen 0.7076576577
set title "fire" font ",12" offset 0,-0.4
set xtics ("" 25.5, "" 51, "" 71, "" 99, "" 150)
set format x ""
set format y ""
set xlabel ""
set ylabel ""
plot "bin_majority_lengths.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 14 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 15 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 16 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 9 using 1:3:4 with filledcurves lc rgb "#56B4E9" fs transparent solid 0.15 noborder notitle, \
     "bin_majority_lengths.dat" index 9 using 1:2 with linespoints lc rgb "#56B4E9" lw 2 dt (10,5) pt 13 ps 0.9 pi 12 notitle, \
     0.5 with lines dt 2 lc rgb "#555555" lw 1 notitle
set lmargin at screen 0.04968944099; set rmargin at screen 0.2134161491; set bmargin at screen 0.3013513514; set tmargin at screen 0.4783783784
set title "xpos" font ",12" offset 0,-0.4
set xtics ("" 25.5, "" 51, "" 71, "" 99, "" 150)
set format x ""
set format y "%g"
set xlabel ""
set ylabel "accuracy"
plot "bin_majority_lengths.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 14 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 15 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 16 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 10 using 1:3:4 with filledcurves lc rgb "#009E73" fs transparent solid 0.15 noborder notitle, \
     "bin_majority_lengths.dat" index 10 using 1:2 with linespoints lc rgb "#009E73" lw 2 dt (10,5) pt 3 ps 0.9 pi 12 notitle, \
     0.5 with lines dt 2 lc rgb "#555555" lw 1 notitle
set lmargin at screen 0.2432298137; set rmargin at screen 0.4069565217; set bmargin at screen 0.3013513514; set tmargin at screen 0.4783783784
set title "cope" font ",12" offset 0,-0.4
set xtics ("" 25.5, "" 51, "" 71, "" 99, "" 150)
set format x ""
set format y ""
set xlabel ""
set ylabel ""
plot "bin_majority_lengths.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 14 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 15 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 16 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 11 using 1:3:4 with filledcurves lc rgb "#0072B2" fs transparent solid 0.15 noborder notitle, \
     "bin_majority_lengths.dat" index 11 using 1:2 with linespoints lc rgb "#0072B2" lw 2 dt (10,5) pt 2 ps 0.9 pi 12 notitle, \
     0.5 with lines dt 2 lc rgb "#555555" lw 1 notitle
set lmargin at screen 0.4367701863; set rmargin at screen 0.6004968944; set bmargin at screen 0.3013513514; set tmargin at screen 0.4783783784
set title "fox" font ",12" offset 0,-0.4
set logscale x 2
set xrange [20.4:187.5]
set xtics ("train\n(1-50)" 25.5, "51" 51, "71" 71, "99" 99, "3x\n(150)" 150)
set xlabel offset 0,-0.6
set format x "%g"
set format y ""
set xlabel "evaluation length"
set ylabel ""
plot "bin_majority_lengths.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 14 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 15 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 16 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 12 using 1:3:4 with filledcurves lc rgb "#D55E00" fs transparent solid 0.15 noborder notitle, \
     "bin_majority_lengths.dat" index 12 using 1:2 with linespoints lc rgb "#D55E00" lw 2 dt (10,5) pt 1 ps 0.9 pi 12 notitle, \
     0.5 with lines dt 2 lc rgb "#555555" lw 1 notitle
set lmargin at screen 0.630310559; set rmargin at screen 0.7940372671; set bmargin at screen 0.3013513514; set tmargin at screen 0.4783783784
set title "stickbreaking" font ",12" offset 0,-0.4
set logscale x 2
set xrange [20.4:187.5]
set xtics ("train\n(1-50)" 25.5, "51" 51, "71" 71, "99" 99, "3x\n(150)" 150)
set xlabel offset 0,-0.6
set format x "%g"
set format y ""
set xlabel "evaluation length"
set ylabel ""
plot "bin_majority_lengths.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 14 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 15 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 16 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 13 using 1:3:4 with filledcurves lc rgb "#CC79A7" fs transparent solid 0.15 noborder notitle, \
     "bin_majority_lengths.dat" index 13 using 1:2 with linespoints lc rgb "#CC79A7" lw 2 dt (10,5) pt 7 ps 0.9 pi 12 notitle, \
     0.5 with lines dt 2 lc rgb "#555555" lw 1 notitle
set lmargin at screen 0.8238509317; set rmargin at screen 0.9875776398; set bmargin at screen 0.3013513514; set tmargin at screen 0.4783783784
set title "pope" font ",12" offset 0,-0.4
set logscale x 2
set xrange [20.4:187.5]
set xtics ("train\n(1-50)" 25.5, "51" 51, "71" 71, "99" 99, "3x\n(150)" 150)
set xlabel offset 0,-0.6
set format x "%g"
set format y ""
set xlabel "evaluation length"
set ylabel ""
plot "bin_majority_lengths.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 15 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 16 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 14 using 1:3:4 with filledcurves lc rgb "#000000" fs transparent solid 0.15 noborder notitle, \
     "bin_majority_lengths.dat" index 14 using 1:2 with linespoints lc rgb "#000000" lw 2 dt (2,4) pt 9 ps 0.9 pi 12 notitle, \
     0.5 with lines dt 2 lc rgb "#555555" lw 1 notitle
set lmargin at screen 0.04968944099; set rmargin at screen 0.2134161491; set bmargin at screen 0.07207207207; set tmargin at screen 0.2490990991
set title "path" font ",12" offset 0,-0.4
set logscale x 2
set xrange [20.4:187.5]
set xtics ("train\n(1-50)" 25.5, "51" 51, "71" 71, "99" 99, "3x\n(150)" 150)
set xlabel offset 0,-0.6
set format x "%g"
set format y "%g"
set xlabel "evaluation length"
set ylabel "accuracy"
plot "bin_majority_lengths.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 14 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 16 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 15 using 1:3:4 with filledcurves lc rgb "#E69F00" fs transparent solid 0.15 noborder notitle, \
     "bin_majority_lengths.dat" index 15 using 1:2 with linespoints lc rgb "#E69F00" lw 2 dt (2,4) pt 13 ps 0.9 pi 12 notitle, \
     0.5 with lines dt 2 lc rgb "#555555" lw 1 notitle
set lmargin at screen 0.2432298137; set rmargin at screen 0.4069565217; set bmargin at screen 0.07207207207; set tmargin at screen 0.2490990991
set title "transformer_xl" font ",12" offset 0,-0.4
set logscale x 2
set xrange [20.4:187.5]
set xtics ("train\n(1-50)" 25.5, "51" 51, "71" 71, "99" 99, "3x\n(150)" 150)
set xlabel offset 0,-0.6
set format x "%g"
set format y ""
set xlabel "evaluation length"
set ylabel ""
plot "bin_majority_lengths.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 14 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 15 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_lengths.dat" index 16 using 1:3:4 with filledcurves lc rgb "#56B4E9" fs transparent solid 0.15 noborder notitle, \
     "bin_majority_lengths.dat" index 16 using 1:2 with linespoints lc rgb "#56B4E9" lw 2 dt (2,4) pt 3 ps 0.9 pi 12 notitle, \
     0.5 with lines dt 2 lc rgb "#555555" lw 1 notitle
unset multiplot
set output
}

# bin_majority_loss.gp: training loss against step, task bin_majority
# Written by ordo; edit freely and redraw with: gnuplot bin_majority_loss.gp (writes bin_majority_loss.png and bin_majority_loss.svg)
set encoding utf8
do for [format in "png svg"] {
reset
if (format eq "png") {
  set terminal pngcairo size 1610,1110 font "sans,11" noenhanced
} else {
  set terminal svg size 1610,1110 font "sans,11" noenhanced background "#ffffff"
}
set output "bin_majority_loss." . format
set multiplot title "bin_majority: training loss against step (mean over 6 seeds, band: min-max over seeds; grey: the others)" font ",13"
set grid
unset key
set xrange [0:30000]
set xtics 0,10000
set mxtics 2
set yrange [0:1.820263816]
set lmargin at screen 0.04968944099; set rmargin at screen 0.2134161491; set bmargin at screen 0.7599099099; set tmargin at screen 0.9369369369
set title "sinusoidal" font ",12" offset 0,-0.4
set format x ""
set format y "%g"
set xlabel ""
set ylabel "train loss"
plot "bin_majority_loss.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 14 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 15 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 16 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 0 using 1:3:4 with filledcurves lc rgb "#000000" fs transparent solid 0.15 noborder notitle, \
     "bin_majority_loss.dat" index 0 using 1:2 with linespoints lc rgb "#000000" lw 2 dt 1 pt 7 ps 0.9 pi 25 notitle
set lmargin at screen 0.2432298137; set rmargin at screen 0.4069565217; set bmargin at screen 0.7599099099; set tmargin at screen 0.9369369369
set title "rope" font ",12" offset 0,-0.4
set format x ""
set format y ""
set xlabel ""
set ylabel ""
plot "bin_majority_loss.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 14 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 15 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 16 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 1 using 1:3:4 with filledcurves lc rgb "#E69F00" fs transparent solid 0.15 noborder notitle, \
     "bin_majority_loss.dat" index 1 using 1:2 with linespoints lc rgb "#E69F00" lw 2 dt 1 pt 5 ps 0.9 pi 25 notitle
set lmargin at screen 0.4367701863; set rmargin at screen 0.6004968944; set bmargin at screen 0.7599099099; set tmargin at screen 0.9369369369
set title "alibi" font ",12" offset 0,-0.4
set format x ""
set format y ""
set xlabel ""
set ylabel ""
plot "bin_majority_loss.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 14 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 15 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 16 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 2 using 1:3:4 with filledcurves lc rgb "#56B4E9" fs transparent solid 0.15 noborder notitle, \
     "bin_majority_loss.dat" index 2 using 1:2 with linespoints lc rgb "#56B4E9" lw 2 dt 1 pt 9 ps 0.9 pi 25 notitle
set lmargin at screen 0.630310559; set rmargin at screen 0.7940372671; set bmargin at screen 0.7599099099; set tmargin at screen 0.9369369369
set title "t5" font ",12" offset 0,-0.4
set format x ""
set format y ""
set xlabel ""
set ylabel ""
plot "bin_majority_loss.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 14 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 15 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 16 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 3 using 1:3:4 with filledcurves lc rgb "#009E73" fs transparent solid 0.15 noborder notitle, \
     "bin_majority_loss.dat" index 3 using 1:2 with linespoints lc rgb "#009E73" lw 2 dt 1 pt 13 ps 0.9 pi 25 notitle
set lmargin at screen 0.8238509317; set rmargin at screen 0.9875776398; set bmargin at screen 0.7599099099; set tmargin at screen 0.9369369369
set title "rbf" font ",12" offset 0,-0.4
set format x ""
set format y ""
set xlabel ""
set ylabel ""
plot "bin_majority_loss.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 14 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 15 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 16 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 4 using 1:3:4 with filledcurves lc rgb "#0072B2" fs transparent solid 0.15 noborder notitle, \
     "bin_majority_loss.dat" index 4 using 1:2 with linespoints lc rgb "#0072B2" lw 2 dt 1 pt 3 ps 0.9 pi 25 notitle
set lmargin at screen 0.04968944099; set rmargin at screen 0.2134161491; set bmargin at screen 0.5306306306; set tmargin at screen 0.7076576577
set title "cyclic" font ",12" offset 0,-0.4
set format x ""
set format y "%g"
set xlabel ""
set ylabel "train loss"
plot "bin_majority_loss.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 14 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 15 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 16 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 5 using 1:3:4 with filledcurves lc rgb "#D55E00" fs transparent solid 0.15 noborder notitle, \
     "bin_majority_loss.dat" index 5 using 1:2 with linespoints lc rgb "#D55E00" lw 2 dt 1 pt 2 ps 0.9 pi 25 notitle
set lmargin at screen 0.2432298137; set rmargin at screen 0.4069565217; set bmargin at screen 0.5306306306; set tmargin at screen 0.7076576577
set title "fourier2d" font ",12" offset 0,-0.4
set format x ""
set format y ""
set xlabel ""
set ylabel ""
plot "bin_majority_loss.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 14 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 15 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 16 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 6 using 1:3:4 with filledcurves lc rgb "#CC79A7" fs transparent solid 0.15 noborder notitle, \
     "bin_majority_loss.dat" index 6 using 1:2 with linespoints lc rgb "#CC79A7" lw 2 dt 1 pt 1 ps 0.9 pi 25 notitle
set lmargin at screen 0.4367701863; set rmargin at screen 0.6004968944; set bmargin at screen 0.5306306306; set tmargin at screen 0.7076576577
set title "kerple_log" font ",12" offset 0,-0.4
set format x ""
set format y ""
set xlabel ""
set ylabel ""
plot "bin_majority_loss.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 14 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 15 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 16 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 7 using 1:3:4 with filledcurves lc rgb "#000000" fs transparent solid 0.15 noborder notitle, \
     "bin_majority_loss.dat" index 7 using 1:2 with linespoints lc rgb "#000000" lw 2 dt (10,5) pt 5 ps 0.9 pi 25 notitle
set lmargin at screen 0.630310559; set rmargin at screen 0.7940372671; set bmargin at screen 0.5306306306; set tmargin at screen 0.7076576577
set title "kerple_power" font ",12" offset 0,-0.4
set format x ""
set format y ""
set xlabel ""
set ylabel ""
plot "bin_majority_loss.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 14 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 15 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 16 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 8 using 1:3:4 with filledcurves lc rgb "#E69F00" fs transparent solid 0.15 noborder notitle, \
     "bin_majority_loss.dat" index 8 using 1:2 with linespoints lc rgb "#E69F00" lw 2 dt (10,5) pt 9 ps 0.9 pi 25 notitle
set lmargin at screen 0.8238509317; set rmargin at screen 0.9875776398; set bmargin at screen 0.5306306306; set tmargin at screen 0.7076576577
set title "fire" font ",12" offset 0,-0.4
set format x ""
set format y ""
set xlabel ""
set ylabel ""
plot "bin_majority_loss.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 14 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 15 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 16 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 9 using 1:3:4 with filledcurves lc rgb "#56B4E9" fs transparent solid 0.15 noborder notitle, \
     "bin_majority_loss.dat" index 9 using 1:2 with linespoints lc rgb "#56B4E9" lw 2 dt (10,5) pt 13 ps 0.9 pi 25 notitle
set lmargin at screen 0.04968944099; set rmargin at screen 0.2134161491; set bmargin at screen 0.3013513514; set tmargin at screen 0.4783783784
set title "xpos" font ",12" offset 0,-0.4
set format x ""
set format y "%g"
set xlabel ""
set ylabel "train loss"
plot "bin_majority_loss.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 14 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 15 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 16 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 10 using 1:3:4 with filledcurves lc rgb "#009E73" fs transparent solid 0.15 noborder notitle, \
     "bin_majority_loss.dat" index 10 using 1:2 with linespoints lc rgb "#009E73" lw 2 dt (10,5) pt 3 ps 0.9 pi 25 notitle
set lmargin at screen 0.2432298137; set rmargin at screen 0.4069565217; set bmargin at screen 0.3013513514; set tmargin at screen 0.4783783784
set title "cope" font ",12" offset 0,-0.4
set format x ""
set format y ""
set xlabel ""
set ylabel ""
plot "bin_majority_loss.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 14 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 15 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 16 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 11 using 1:3:4 with filledcurves lc rgb "#0072B2" fs transparent solid 0.15 noborder notitle, \
     "bin_majority_loss.dat" index 11 using 1:2 with linespoints lc rgb "#0072B2" lw 2 dt (10,5) pt 2 ps 0.9 pi 25 notitle
set lmargin at screen 0.4367701863; set rmargin at screen 0.6004968944; set bmargin at screen 0.3013513514; set tmargin at screen 0.4783783784
set title "fox" font ",12" offset 0,-0.4
set format x "%g"
set format y ""
set xlabel "step"
set ylabel ""
plot "bin_majority_loss.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 14 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 15 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 16 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 12 using 1:3:4 with filledcurves lc rgb "#D55E00" fs transparent solid 0.15 noborder notitle, \
     "bin_majority_loss.dat" index 12 using 1:2 with linespoints lc rgb "#D55E00" lw 2 dt (10,5) pt 1 ps 0.9 pi 25 notitle
set lmargin at screen 0.630310559; set rmargin at screen 0.7940372671; set bmargin at screen 0.3013513514; set tmargin at screen 0.4783783784
set title "stickbreaking" font ",12" offset 0,-0.4
set format x "%g"
set format y ""
set xlabel "step"
set ylabel ""
plot "bin_majority_loss.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 14 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 15 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 16 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 13 using 1:3:4 with filledcurves lc rgb "#CC79A7" fs transparent solid 0.15 noborder notitle, \
     "bin_majority_loss.dat" index 13 using 1:2 with linespoints lc rgb "#CC79A7" lw 2 dt (10,5) pt 7 ps 0.9 pi 25 notitle
set lmargin at screen 0.8238509317; set rmargin at screen 0.9875776398; set bmargin at screen 0.3013513514; set tmargin at screen 0.4783783784
set title "pope" font ",12" offset 0,-0.4
set format x "%g"
set format y ""
set xlabel "step"
set ylabel ""
plot "bin_majority_loss.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 15 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 16 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 14 using 1:3:4 with filledcurves lc rgb "#000000" fs transparent solid 0.15 noborder notitle, \
     "bin_majority_loss.dat" index 14 using 1:2 with linespoints lc rgb "#000000" lw 2 dt (2,4) pt 9 ps 0.9 pi 25 notitle
set lmargin at screen 0.04968944099; set rmargin at screen 0.2134161491; set bmargin at screen 0.07207207207; set tmargin at screen 0.2490990991
set title "path" font ",12" offset 0,-0.4
set format x "%g"
set format y "%g"
set xlabel "step"
set ylabel "train loss"
plot "bin_majority_loss.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 14 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 16 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 15 using 1:3:4 with filledcurves lc rgb "#E69F00" fs transparent solid 0.15 noborder notitle, \
     "bin_majority_loss.dat" index 15 using 1:2 with linespoints lc rgb "#E69F00" lw 2 dt (2,4) pt 13 ps 0.9 pi 25 notitle
set lmargin at screen 0.2432298137; set rmargin at screen 0.4069565217; set bmargin at screen 0.07207207207; set tmargin at screen 0.2490990991
set title "transformer_xl" font ",12" offset 0,-0.4
set format x "%g"
set format y ""
set xlabel "step"
set ylabel ""
plot "bin_majority_loss.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 14 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 15 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "bin_majority_loss.dat" index 16 using 1:3:4 with filledcurves lc rgb "#56B4E9" fs transparent solid 0.15 noborder notitle, \
     "bin_majority_loss.dat" index 16 using 1:2 with linespoints lc rgb "#56B4E9" lw 2 dt (2,4) pt 3 ps 0.9 pi 25 notitle
unset multiplot
set output
}

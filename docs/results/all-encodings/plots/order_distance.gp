# order_distance.gp: accuracy against distance, task order
# Written by ordo; edit freely and redraw with: gnuplot order_distance.gp (writes order_distance.png and order_distance.svg)
set encoding utf8
do for [format in "png svg"] {
reset
if (format eq "png") {
  set terminal pngcairo size 1310,1270 font "sans,11" noenhanced
} else {
  set terminal svg size 1310,1270 font "sans,11" noenhanced background "#ffffff"
}
set output "order_distance." . format
set multiplot title "order: accuracy against distance, length 128 (final evaluation, seeds pooled; grey: the others)" font ",13"
set grid
unset key
set xrange [0:128]
set xtics 0,50
set yrange [0:1.02]
set ytics 0,0.2
set arrow from 31, graph 0 to 31, graph 1 nohead dt 3 lc rgb "#666666"
set lmargin at screen 0.06106870229; set rmargin at screen 0.2645038168; set bmargin at screen 0.7960629921; set tmargin at screen 0.9448818898
set title "none" font ",12" offset 0,-0.4
set format x ""
set format y "%g"
set xlabel ""
set ylabel "accuracy"
plot "order_distance.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 0 using 1:2 with linespoints lc rgb "#000000" lw 2 dt 1 pt 7 ps 0.9 pi 1 notitle, \
     0.5 with lines dt 2 lc rgb "#555555" lw 1 notitle
set lmargin at screen 0.3011450382; set rmargin at screen 0.5045801527; set bmargin at screen 0.7960629921; set tmargin at screen 0.9448818898
set title "sinusoidal" font ",12" offset 0,-0.4
set format x ""
set format y ""
set xlabel ""
set ylabel ""
plot "order_distance.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 1 using 1:2 with linespoints lc rgb "#E69F00" lw 2 dt 1 pt 5 ps 0.9 pi 1 notitle, \
     0.5 with lines dt 2 lc rgb "#555555" lw 1 notitle
set lmargin at screen 0.541221374; set rmargin at screen 0.7446564885; set bmargin at screen 0.7960629921; set tmargin at screen 0.9448818898
set title "learned" font ",12" offset 0,-0.4
set format x ""
set format y ""
set xlabel ""
set ylabel ""
plot "order_distance.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 2 using 1:2 with linespoints lc rgb "#56B4E9" lw 2 dt 1 pt 9 ps 0.9 pi 1 notitle, \
     0.5 with lines dt 2 lc rgb "#555555" lw 1 notitle
set lmargin at screen 0.7812977099; set rmargin at screen 0.9847328244; set bmargin at screen 0.7960629921; set tmargin at screen 0.9448818898
set title "rope" font ",12" offset 0,-0.4
set format x ""
set format y ""
set xlabel ""
set ylabel ""
plot "order_distance.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 3 using 1:2 with linespoints lc rgb "#009E73" lw 2 dt 1 pt 13 ps 0.9 pi 1 notitle, \
     0.5 with lines dt 2 lc rgb "#555555" lw 1 notitle
set lmargin at screen 0.06106870229; set rmargin at screen 0.2645038168; set bmargin at screen 0.6094488189; set tmargin at screen 0.7582677165
set title "alibi" font ",12" offset 0,-0.4
set format x ""
set format y "%g"
set xlabel ""
set ylabel "accuracy"
plot "order_distance.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 4 using 1:2 with linespoints lc rgb "#0072B2" lw 2 dt 1 pt 3 ps 0.9 pi 1 notitle, \
     0.5 with lines dt 2 lc rgb "#555555" lw 1 notitle
set lmargin at screen 0.3011450382; set rmargin at screen 0.5045801527; set bmargin at screen 0.6094488189; set tmargin at screen 0.7582677165
set title "t5" font ",12" offset 0,-0.4
set format x ""
set format y ""
set xlabel ""
set ylabel ""
plot "order_distance.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 5 using 1:2 with linespoints lc rgb "#D55E00" lw 2 dt 1 pt 2 ps 0.9 pi 1 notitle, \
     0.5 with lines dt 2 lc rgb "#555555" lw 1 notitle
set lmargin at screen 0.541221374; set rmargin at screen 0.7446564885; set bmargin at screen 0.6094488189; set tmargin at screen 0.7582677165
set title "rbf" font ",12" offset 0,-0.4
set format x ""
set format y ""
set xlabel ""
set ylabel ""
plot "order_distance.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 6 using 1:2 with linespoints lc rgb "#CC79A7" lw 2 dt 1 pt 1 ps 0.9 pi 1 notitle, \
     0.5 with lines dt 2 lc rgb "#555555" lw 1 notitle
set lmargin at screen 0.7812977099; set rmargin at screen 0.9847328244; set bmargin at screen 0.6094488189; set tmargin at screen 0.7582677165
set title "cyclic" font ",12" offset 0,-0.4
set format x ""
set format y ""
set xlabel ""
set ylabel ""
plot "order_distance.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 7 using 1:2 with linespoints lc rgb "#000000" lw 2 dt (10,5) pt 5 ps 0.9 pi 1 notitle, \
     0.5 with lines dt 2 lc rgb "#555555" lw 1 notitle
set lmargin at screen 0.06106870229; set rmargin at screen 0.2645038168; set bmargin at screen 0.4228346457; set tmargin at screen 0.5716535433
set title "fourier2d" font ",12" offset 0,-0.4
set format x ""
set format y "%g"
set xlabel ""
set ylabel "accuracy"
plot "order_distance.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 8 using 1:2 with linespoints lc rgb "#E69F00" lw 2 dt (10,5) pt 9 ps 0.9 pi 1 notitle, \
     0.5 with lines dt 2 lc rgb "#555555" lw 1 notitle
set lmargin at screen 0.3011450382; set rmargin at screen 0.5045801527; set bmargin at screen 0.4228346457; set tmargin at screen 0.5716535433
set title "kerple_log" font ",12" offset 0,-0.4
set format x ""
set format y ""
set xlabel ""
set ylabel ""
plot "order_distance.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 9 using 1:2 with linespoints lc rgb "#56B4E9" lw 2 dt (10,5) pt 13 ps 0.9 pi 1 notitle, \
     0.5 with lines dt 2 lc rgb "#555555" lw 1 notitle
set lmargin at screen 0.541221374; set rmargin at screen 0.7446564885; set bmargin at screen 0.4228346457; set tmargin at screen 0.5716535433
set title "kerple_power" font ",12" offset 0,-0.4
set format x "%g"
set format y ""
set xlabel "distance"
set ylabel ""
plot "order_distance.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 10 using 1:2 with linespoints lc rgb "#009E73" lw 2 dt (10,5) pt 3 ps 0.9 pi 1 notitle, \
     0.5 with lines dt 2 lc rgb "#555555" lw 1 notitle
set lmargin at screen 0.7812977099; set rmargin at screen 0.9847328244; set bmargin at screen 0.4228346457; set tmargin at screen 0.5716535433
set title "fire" font ",12" offset 0,-0.4
set format x "%g"
set format y ""
set xlabel "distance"
set ylabel ""
plot "order_distance.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 11 using 1:2 with linespoints lc rgb "#0072B2" lw 2 dt (10,5) pt 2 ps 0.9 pi 1 notitle, \
     0.5 with lines dt 2 lc rgb "#555555" lw 1 notitle
set lmargin at screen 0.06106870229; set rmargin at screen 0.2645038168; set bmargin at screen 0.2362204724; set tmargin at screen 0.3850393701
set title "xpos (causal=true)" font ",12" offset 0,-0.4
set format x "%g"
set format y "%g"
set xlabel "distance"
set ylabel "accuracy"
plot "order_distance.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 12 using 1:2 with linespoints lc rgb "#D55E00" lw 2 dt (10,5) pt 1 ps 0.9 pi 1 notitle, \
     0.5 with lines dt 2 lc rgb "#555555" lw 1 notitle
set lmargin at screen 0.3011450382; set rmargin at screen 0.5045801527; set bmargin at screen 0.2362204724; set tmargin at screen 0.3850393701
set title "cope (causal=true)" font ",12" offset 0,-0.4
set format x "%g"
set format y ""
set xlabel "distance"
set ylabel ""
plot "order_distance.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "order_distance.dat" index 13 using 1:2 with linespoints lc rgb "#CC79A7" lw 2 dt (10,5) pt 7 ps 0.9 pi 1 notitle, \
     0.5 with lines dt 2 lc rgb "#555555" lw 1 notitle
unset logscale
unset arrow
unset title
set lmargin at screen 0.06106870229; set rmargin at screen 0.9847328244; set bmargin at screen 0.04724409449; set tmargin at screen 0.1653543307
set xrange [0:128]
set xtics 0,50
set format x "%g"
set format y "%g"
set yrange [0:124.2]
set ytics autofreq
set xlabel "distance (bins of 8); dotted: the longest trained distance"
set ylabel "scored rows"
unset key
set label 1 "scored rows per bin (seeds pooled; fewest over the series). Grey: fewer than 30, too few to read (standard error over 0.09): not drawn" at graph 0.01, graph 0.9 left font ",10"
set boxwidth 6.4 absolute
plot "order_distance.dat" index 14 using 1:3 with boxes fs solid 0.6 lc rgb "#bbbbbb" notitle, \
     '' index 14 using 1:4 with boxes fs solid 0.6 lc rgb "#555555" notitle, \
     30 with lines dt 2 lc rgb "#D55E00" notitle
unset multiplot
set output
}

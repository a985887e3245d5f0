# shift_lengths.gp: accuracy against evaluation length, task shift
# Written by ordo; edit freely and redraw with: gnuplot shift_lengths.gp (writes shift_lengths.png and shift_lengths.svg)
set encoding utf8
do for [format in "png svg"] {
reset
if (format eq "png") {
  set terminal pngcairo size 1310,1110 font "sans,11" noenhanced
} else {
  set terminal svg size 1310,1110 font "sans,11" noenhanced background "#ffffff"
}
set output "shift_lengths." . format
set multiplot title "shift: accuracy against evaluation length (final evaluation; bars: min-max over seeds; dotted: the longest training length; grey: the others)" font ",13"
set grid
unset key
set logscale x 2
set xrange [32:320]
set xtics ("train\n(16-64)" 40, "2x\n(128)" 128, "4x\n(256)" 256)
set xlabel offset 0,-0.6
set yrange [0:1.02]
set ytics 0,0.2
set arrow from 64, graph 0 to 64, graph 1 nohead dt 3 lc rgb "#666666"
set lmargin at screen 0.06106870229; set rmargin at screen 0.2645038168; set bmargin at screen 0.7599099099; set tmargin at screen 0.9369369369
set title "none" font ",12" offset 0,-0.4
set xtics ("" 40, "" 128, "" 256)
set format x ""
set format y "%g"
set xlabel ""
set ylabel "accuracy"
plot "shift_lengths.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 0 using 1:2:3:4 with yerrorlines lc rgb "#000000" lw 2 dt 1 pt 7 ps 0.9 notitle, \
     0.5 with lines dt 2 lc rgb "#555555" lw 1 notitle
set lmargin at screen 0.3011450382; set rmargin at screen 0.5045801527; set bmargin at screen 0.7599099099; set tmargin at screen 0.9369369369
set title "sinusoidal" font ",12" offset 0,-0.4
set xtics ("" 40, "" 128, "" 256)
set format x ""
set format y ""
set xlabel ""
set ylabel ""
plot "shift_lengths.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 1 using 1:2:3:4 with yerrorlines lc rgb "#E69F00" lw 2 dt 1 pt 5 ps 0.9 notitle, \
     0.5 with lines dt 2 lc rgb "#555555" lw 1 notitle
set lmargin at screen 0.541221374; set rmargin at screen 0.7446564885; set bmargin at screen 0.7599099099; set tmargin at screen 0.9369369369
set title "learned" font ",12" offset 0,-0.4
set xtics ("" 40, "" 128, "" 256)
set format x ""
set format y ""
set xlabel ""
set ylabel ""
plot "shift_lengths.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 2 using 1:2:3:4 with yerrorlines lc rgb "#56B4E9" lw 2 dt 1 pt 9 ps 0.9 notitle, \
     0.5 with lines dt 2 lc rgb "#555555" lw 1 notitle
set lmargin at screen 0.7812977099; set rmargin at screen 0.9847328244; set bmargin at screen 0.7599099099; set tmargin at screen 0.9369369369
set title "rope" font ",12" offset 0,-0.4
set xtics ("" 40, "" 128, "" 256)
set format x ""
set format y ""
set xlabel ""
set ylabel ""
plot "shift_lengths.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 3 using 1:2:3:4 with yerrorlines lc rgb "#009E73" lw 2 dt 1 pt 13 ps 0.9 notitle, \
     0.5 with lines dt 2 lc rgb "#555555" lw 1 notitle
set lmargin at screen 0.06106870229; set rmargin at screen 0.2645038168; set bmargin at screen 0.5306306306; set tmargin at screen 0.7076576577
set title "alibi" font ",12" offset 0,-0.4
set xtics ("" 40, "" 128, "" 256)
set format x ""
set format y "%g"
set xlabel ""
set ylabel "accuracy"
plot "shift_lengths.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 4 using 1:2:3:4 with yerrorlines lc rgb "#0072B2" lw 2 dt 1 pt 3 ps 0.9 notitle, \
     0.5 with lines dt 2 lc rgb "#555555" lw 1 notitle
set lmargin at screen 0.3011450382; set rmargin at screen 0.5045801527; set bmargin at screen 0.5306306306; set tmargin at screen 0.7076576577
set title "t5" font ",12" offset 0,-0.4
set xtics ("" 40, "" 128, "" 256)
set format x ""
set format y ""
set xlabel ""
set ylabel ""
plot "shift_lengths.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 5 using 1:2:3:4 with yerrorlines lc rgb "#D55E00" lw 2 dt 1 pt 2 ps 0.9 notitle, \
     0.5 with lines dt 2 lc rgb "#555555" lw 1 notitle
set lmargin at screen 0.541221374; set rmargin at screen 0.7446564885; set bmargin at screen 0.5306306306; set tmargin at screen 0.7076576577
set title "rbf" font ",12" offset 0,-0.4
set xtics ("" 40, "" 128, "" 256)
set format x ""
set format y ""
set xlabel ""
set ylabel ""
plot "shift_lengths.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 6 using 1:2:3:4 with yerrorlines lc rgb "#CC79A7" lw 2 dt 1 pt 1 ps 0.9 notitle, \
     0.5 with lines dt 2 lc rgb "#555555" lw 1 notitle
set lmargin at screen 0.7812977099; set rmargin at screen 0.9847328244; set bmargin at screen 0.5306306306; set tmargin at screen 0.7076576577
set title "cyclic" font ",12" offset 0,-0.4
set xtics ("" 40, "" 128, "" 256)
set format x ""
set format y ""
set xlabel ""
set ylabel ""
plot "shift_lengths.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 7 using 1:2:3:4 with yerrorlines lc rgb "#000000" lw 2 dt (10,5) pt 5 ps 0.9 notitle, \
     0.5 with lines dt 2 lc rgb "#555555" lw 1 notitle
set lmargin at screen 0.06106870229; set rmargin at screen 0.2645038168; set bmargin at screen 0.3013513514; set tmargin at screen 0.4783783784
set title "fourier2d" font ",12" offset 0,-0.4
set xtics ("" 40, "" 128, "" 256)
set format x ""
set format y "%g"
set xlabel ""
set ylabel "accuracy"
plot "shift_lengths.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 8 using 1:2:3:4 with yerrorlines lc rgb "#E69F00" lw 2 dt (10,5) pt 9 ps 0.9 notitle, \
     0.5 with lines dt 2 lc rgb "#555555" lw 1 notitle
set lmargin at screen 0.3011450382; set rmargin at screen 0.5045801527; set bmargin at screen 0.3013513514; set tmargin at screen 0.4783783784
set title "kerple_log" font ",12" offset 0,-0.4
set xtics ("" 40, "" 128, "" 256)
set format x ""
set format y ""
set xlabel ""
set ylabel ""
plot "shift_lengths.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 9 using 1:2:3:4 with yerrorlines lc rgb "#56B4E9" lw 2 dt (10,5) pt 13 ps 0.9 notitle, \
     0.5 with lines dt 2 lc rgb "#555555" lw 1 notitle
set lmargin at screen 0.541221374; set rmargin at screen 0.7446564885; set bmargin at screen 0.3013513514; set tmargin at screen 0.4783783784
set title "kerple_power" font ",12" offset 0,-0.4
set logscale x 2
set xrange [32:320]
set xtics ("train\n(16-64)" 40, "2x\n(128)" 128, "4x\n(256)" 256)
set xlabel offset 0,-0.6
set format x "%g"
set format y ""
set xlabel "evaluation length"
set ylabel ""
plot "shift_lengths.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 10 using 1:2:3:4 with yerrorlines lc rgb "#009E73" lw 2 dt (10,5) pt 3 ps 0.9 notitle, \
     0.5 with lines dt 2 lc rgb "#555555" lw 1 notitle
set lmargin at screen 0.7812977099; set rmargin at screen 0.9847328244; set bmargin at screen 0.3013513514; set tmargin at screen 0.4783783784
set title "fire" font ",12" offset 0,-0.4
set logscale x 2
set xrange [32:320]
set xtics ("train\n(16-64)" 40, "2x\n(128)" 128, "4x\n(256)" 256)
set xlabel offset 0,-0.6
set format x "%g"
set format y ""
set xlabel "evaluation length"
set ylabel ""
plot "shift_lengths.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 11 using 1:2:3:4 with yerrorlines lc rgb "#0072B2" lw 2 dt (10,5) pt 2 ps 0.9 notitle, \
     0.5 with lines dt 2 lc rgb "#555555" lw 1 notitle
set lmargin at screen 0.06106870229; set rmargin at screen 0.2645038168; set bmargin at screen 0.07207207207; set tmargin at screen 0.2490990991
set title "xpos (causal=true)" font ",12" offset 0,-0.4
set logscale x 2
set xrange [32:320]
set xtics ("train\n(16-64)" 40, "2x\n(128)" 128, "4x\n(256)" 256)
set xlabel offset 0,-0.6
set format x "%g"
set format y "%g"
set xlabel "evaluation length"
set ylabel "accuracy"
plot "shift_lengths.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 13 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 12 using 1:2:3:4 with yerrorlines lc rgb "#D55E00" lw 2 dt (10,5) pt 1 ps 0.9 notitle, \
     0.5 with lines dt 2 lc rgb "#555555" lw 1 notitle
set lmargin at screen 0.3011450382; set rmargin at screen 0.5045801527; set bmargin at screen 0.07207207207; set tmargin at screen 0.2490990991
set title "cope (causal=true)" font ",12" offset 0,-0.4
set logscale x 2
set xrange [32:320]
set xtics ("train\n(16-64)" 40, "2x\n(128)" 128, "4x\n(256)" 256)
set xlabel offset 0,-0.6
set format x "%g"
set format y ""
set xlabel "evaluation length"
set ylabel ""
plot "shift_lengths.dat" index 0 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 1 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 2 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 3 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 4 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 5 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 6 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 7 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 8 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 9 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 10 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 11 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 12 using 1:2 with lines lc rgb "#cccccc" lw 1 notitle, \
     "shift_lengths.dat" index 13 using 1:2:3:4 with yerrorlines lc rgb "#CC79A7" lw 2 dt (10,5) pt 7 ps 0.9 notitle, \
     0.5 with lines dt 2 lc rgb "#555555" lw 1 notitle
unset multiplot
set output
}

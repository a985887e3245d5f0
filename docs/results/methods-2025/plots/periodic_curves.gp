# periodic_curves.gp: learning curves of task periodic
# Written by ordo; edit freely and redraw with: gnuplot periodic_curves.gp (writes periodic_curves.png and periodic_curves.svg)
set encoding utf8
do for [format in "png svg"] {
reset
if (format eq "png") {
  set terminal pngcairo size 1310,860 font "sans,11" noenhanced
} else {
  set terminal svg size 1310,860 font "sans,11" noenhanced background "#ffffff"
}
set output "periodic_curves." . format
set multiplot title "periodic: learning curves (mean over 3 seeds, band: min-max over seeds)" font ",13"
set lmargin at screen 0.06106870229; set rmargin at screen 0.8244274809; set bmargin at screen 0.53; set tmargin at screen 0.9302325581
set grid
set xrange [0:2000]
set xtics 0,200
set mxtics 2
set yrange [0:2.186132312]
set xlabel ""
set ylabel "train loss"
set key at screen 0.8364274809, screen 0.9302325581 left top Left reverse samplen 4 spacing 1.15 width 1 font ",11" box lc rgb "#bbbbbb"
plot "periodic_curves.dat" index 0 using 1:3:4 with filledcurves lc rgb "#000000" fs transparent solid 0.15 noborder notitle, \
     "periodic_curves.dat" index 0 using 1:2 with linespoints lc rgb "#000000" lw 4 dt 1 pt 7 ps 0.9 pi 31 title "none", \
     "periodic_curves.dat" index 1 using 1:3:4 with filledcurves lc rgb "#E69F00" fs transparent solid 0.15 noborder notitle, \
     "periodic_curves.dat" index 1 using 1:2 with linespoints lc rgb "#E69F00" lw 3.642857143 dt 1 pt 5 ps 0.9 pi 31 title "rope", \
     "periodic_curves.dat" index 2 using 1:3:4 with filledcurves lc rgb "#56B4E9" fs transparent solid 0.15 noborder notitle, \
     "periodic_curves.dat" index 2 using 1:2 with linespoints lc rgb "#56B4E9" lw 3.285714286 dt 1 pt 9 ps 0.9 pi 31 title "alibi", \
     "periodic_curves.dat" index 3 using 1:3:4 with filledcurves lc rgb "#009E73" fs transparent solid 0.15 noborder notitle, \
     "periodic_curves.dat" index 3 using 1:2 with linespoints lc rgb "#009E73" lw 2.928571429 dt 1 pt 13 ps 0.9 pi 31 title "rope+none", \
     "periodic_curves.dat" index 4 using 1:3:4 with filledcurves lc rgb "#0072B2" fs transparent solid 0.15 noborder notitle, \
     "periodic_curves.dat" index 4 using 1:2 with linespoints lc rgb "#0072B2" lw 2.571428571 dt 1 pt 3 ps 0.9 pi 31 title "fox", \
     "periodic_curves.dat" index 5 using 1:3:4 with filledcurves lc rgb "#D55E00" fs transparent solid 0.15 noborder notitle, \
     "periodic_curves.dat" index 5 using 1:2 with linespoints lc rgb "#D55E00" lw 2.214285714 dt 1 pt 2 ps 0.9 pi 31 title "stickbreaking", \
     "periodic_curves.dat" index 6 using 1:3:4 with filledcurves lc rgb "#CC79A7" fs transparent solid 0.15 noborder notitle, \
     "periodic_curves.dat" index 6 using 1:2 with linespoints lc rgb "#CC79A7" lw 1.857142857 dt 1 pt 1 ps 0.9 pi 31 title "path", \
     "periodic_curves.dat" index 7 using 1:3:4 with filledcurves lc rgb "#000000" fs transparent solid 0.15 noborder notitle, \
     "periodic_curves.dat" index 7 using 1:2 with linespoints lc rgb "#000000" lw 1.5 dt (10,5) pt 5 ps 0.9 pi 31 title "pope"
set format x "%g"
set lmargin at screen 0.06106870229; set rmargin at screen 0.8244274809; set bmargin at screen 0.08139534884; set tmargin at screen 0.47
set grid
set xrange [0:2000]
set xtics 0,200
set mxtics 2
set yrange [0:1.02]
set ytics 0,0.2
set xlabel "step"
set ylabel "accuracy (training lengths)"
unset key
plot "periodic_curves.dat" index 8 using 1:3:4 with filledcurves lc rgb "#000000" fs transparent solid 0.15 noborder notitle, \
     "periodic_curves.dat" index 8 using 1:2 with linespoints lc rgb "#000000" lw 4 dt 1 pt 7 ps 0.9 pi 1 notitle, \
     "periodic_curves.dat" index 9 using 1:3:4 with filledcurves lc rgb "#E69F00" fs transparent solid 0.15 noborder notitle, \
     "periodic_curves.dat" index 9 using 1:2 with linespoints lc rgb "#E69F00" lw 3.642857143 dt 1 pt 5 ps 0.9 pi 1 notitle, \
     "periodic_curves.dat" index 10 using 1:3:4 with filledcurves lc rgb "#56B4E9" fs transparent solid 0.15 noborder notitle, \
     "periodic_curves.dat" index 10 using 1:2 with linespoints lc rgb "#56B4E9" lw 3.285714286 dt 1 pt 9 ps 0.9 pi 1 notitle, \
     "periodic_curves.dat" index 11 using 1:3:4 with filledcurves lc rgb "#009E73" fs transparent solid 0.15 noborder notitle, \
     "periodic_curves.dat" index 11 using 1:2 with linespoints lc rgb "#009E73" lw 2.928571429 dt 1 pt 13 ps 0.9 pi 1 notitle, \
     "periodic_curves.dat" index 12 using 1:3:4 with filledcurves lc rgb "#0072B2" fs transparent solid 0.15 noborder notitle, \
     "periodic_curves.dat" index 12 using 1:2 with linespoints lc rgb "#0072B2" lw 2.571428571 dt 1 pt 3 ps 0.9 pi 1 notitle, \
     "periodic_curves.dat" index 13 using 1:3:4 with filledcurves lc rgb "#D55E00" fs transparent solid 0.15 noborder notitle, \
     "periodic_curves.dat" index 13 using 1:2 with linespoints lc rgb "#D55E00" lw 2.214285714 dt 1 pt 2 ps 0.9 pi 1 notitle, \
     "periodic_curves.dat" index 14 using 1:3:4 with filledcurves lc rgb "#CC79A7" fs transparent solid 0.15 noborder notitle, \
     "periodic_curves.dat" index 14 using 1:2 with linespoints lc rgb "#CC79A7" lw 1.857142857 dt 1 pt 1 ps 0.9 pi 1 notitle, \
     "periodic_curves.dat" index 15 using 1:3:4 with filledcurves lc rgb "#000000" fs transparent solid 0.15 noborder notitle, \
     "periodic_curves.dat" index 15 using 1:2 with linespoints lc rgb "#000000" lw 1.5 dt (10,5) pt 5 ps 0.9 pi 1 notitle, \
     0.125 with lines dt 2 lc rgb "#555555" lw 1.5 title "chance"
unset multiplot
set output
}

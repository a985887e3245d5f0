# periodic_curves.gp: learning curves of task periodic
# Written by ordo; edit freely and redraw with: gnuplot periodic_curves.gp (writes periodic_curves.png and periodic_curves.svg)
set encoding utf8
do for [format in "png svg"] {
reset
if (format eq "png") {
  set terminal pngcairo size 1251,860 font "sans,11" noenhanced
} else {
  set terminal svg size 1251,860 font "sans,11" noenhanced background "#ffffff"
}
set output "periodic_curves." . format
set multiplot title "periodic: learning curves (mean over 1 seed)" font ",13"
set lmargin at screen 0.06394884093; set rmargin at screen 0.8633093525; set bmargin at screen 0.53; set tmargin at screen 0.9302325581
set grid
set xrange [0:24000]
set xtics 0,5000
set mxtics 2
set yrange [0:1.766091469]
set xlabel ""
set ylabel "train loss"
set key at screen 0.8753093525, screen 0.9302325581 left top Left reverse samplen 4 spacing 1.15 width 1 font ",11" box lc rgb "#bbbbbb"
plot "periodic_curves.dat" index 0 using 1:3:4 with filledcurves lc rgb "#000000" fs transparent solid 0.15 noborder notitle, \
     "periodic_curves.dat" index 0 using 1:2 with linespoints lc rgb "#000000" lw 4 dt 1 pt 7 ps 0.9 pi 31 title "rope", \
     "periodic_curves.dat" index 1 using 1:3:4 with filledcurves lc rgb "#E69F00" fs transparent solid 0.15 noborder notitle, \
     "periodic_curves.dat" index 1 using 1:2 with linespoints lc rgb "#E69F00" lw 1.5 dt 1 pt 5 ps 0.9 pi 31 title "alibi"
set format x "%g"
set lmargin at screen 0.06394884093; set rmargin at screen 0.8633093525; set bmargin at screen 0.08139534884; set tmargin at screen 0.47
set grid
set xrange [0:24000]
set xtics 0,5000
set mxtics 2
set yrange [0:1.02]
set ytics 0,0.2
set xlabel "step"
set ylabel "accuracy (training lengths)"
unset key
plot "periodic_curves.dat" index 2 using 1:3:4 with filledcurves lc rgb "#000000" fs transparent solid 0.15 noborder notitle, \
     "periodic_curves.dat" index 2 using 1:2 with linespoints lc rgb "#000000" lw 4 dt 1 pt 7 ps 0.9 pi 3 notitle, \
     "periodic_curves.dat" index 3 using 1:3:4 with filledcurves lc rgb "#E69F00" fs transparent solid 0.15 noborder notitle, \
     "periodic_curves.dat" index 3 using 1:2 with linespoints lc rgb "#E69F00" lw 1.5 dt 1 pt 5 ps 0.9 pi 3 notitle, \
     0.125 with lines dt 2 lc rgb "#555555" lw 1.5 title "chance"
unset multiplot
set output
}

# cycle_navigation_lengths.gp: accuracy against evaluation length, task cycle_navigation
# Written by ordo; edit freely and redraw with: gnuplot cycle_navigation_lengths.gp (writes cycle_navigation_lengths.png and cycle_navigation_lengths.svg)
set encoding utf8
do for [format in "png svg"] {
reset
if (format eq "png") {
  set terminal pngcairo size 1319,620 font "sans,11" noenhanced
} else {
  set terminal svg size 1319,620 font "sans,11" noenhanced background "#ffffff"
}
set output "cycle_navigation_lengths." . format
set multiplot title "cycle_navigation: accuracy against evaluation length (final evaluation; band: min-max over seeds; dotted: the longest training length)" font ",13"
set lmargin at screen 0.0606520091; set rmargin at screen 0.8188021228; set bmargin at screen 0.1129032258; set tmargin at screen 0.9032258065
set grid
set logscale x 2
set xrange [16.4:613.75]
set xtics ("train\n(1-40)" 20.5, "41" 41, "61" 61, "91" 91, "131" 131, "181" 181, "251" 251, "341" 341, "461" 461)
set xlabel offset 0,-0.6
set yrange [0:1.02]
set ytics 0,0.2
set arrow from 40, graph 0 to 40, graph 1 nohead dt 3 lc rgb "#666666"
set xlabel "evaluation length in input symbols (log scale; dotted: the longest training length)"
set ylabel "accuracy"
set key at screen 0.8308021228, screen 0.9032258065 left top Left reverse samplen 4 spacing 1.15 width 1 font ",11" box lc rgb "#bbbbbb"
plot "cycle_navigation_lengths.dat" index 0 using 1:3:4 with filledcurves lc rgb "#000000" fs transparent solid 0.15 noborder notitle, \
     "cycle_navigation_lengths.dat" index 0 using 1:2 with linespoints lc rgb "#000000" lw 4 dt 1 pt 7 ps 0.9 pi 6 title "none", \
     "cycle_navigation_lengths.dat" index 1 using 1:3:4 with filledcurves lc rgb "#E69F00" fs transparent solid 0.15 noborder notitle, \
     "cycle_navigation_lengths.dat" index 1 using 1:2 with linespoints lc rgb "#E69F00" lw 3.5 dt 1 pt 5 ps 0.9 pi 6 title "sinusoidal", \
     "cycle_navigation_lengths.dat" index 2 using 1:3:4 with filledcurves lc rgb "#56B4E9" fs transparent solid 0.15 noborder notitle, \
     "cycle_navigation_lengths.dat" index 2 using 1:2 with linespoints lc rgb "#56B4E9" lw 3 dt 1 pt 9 ps 0.9 pi 6 title "rope", \
     "cycle_navigation_lengths.dat" index 3 using 1:3:4 with filledcurves lc rgb "#009E73" fs transparent solid 0.15 noborder notitle, \
     "cycle_navigation_lengths.dat" index 3 using 1:2 with linespoints lc rgb "#009E73" lw 2.5 dt 1 pt 13 ps 0.9 pi 6 title "alibi", \
     "cycle_navigation_lengths.dat" index 4 using 1:3:4 with filledcurves lc rgb "#0072B2" fs transparent solid 0.15 noborder notitle, \
     "cycle_navigation_lengths.dat" index 4 using 1:2 with linespoints lc rgb "#0072B2" lw 2 dt 1 pt 3 ps 0.9 pi 6 title "learned", \
     "cycle_navigation_lengths.dat" index 5 using 1:3:4 with filledcurves lc rgb "#D55E00" fs transparent solid 0.15 noborder notitle, \
     "cycle_navigation_lengths.dat" index 5 using 1:2 with linespoints lc rgb "#D55E00" lw 1.5 dt 1 pt 2 ps 0.9 pi 6 title "transformer_xl", \
     0.2 with lines dt 2 lc rgb "#555555" lw 1.5 title "chance"
unset multiplot
set output
}

# unique_sort_lengths.gp: accuracy against evaluation length, task unique_sort
# Written by ordo; edit freely and redraw with: gnuplot unique_sort_lengths.gp (writes unique_sort_lengths.png and unique_sort_lengths.svg)
set encoding utf8
do for [format in "png svg"] {
reset
if (format eq "png") {
  set terminal pngcairo size 1251,620 font "sans,11" noenhanced
} else {
  set terminal svg size 1251,620 font "sans,11" noenhanced background "#ffffff"
}
set output "unique_sort_lengths." . format
set multiplot title "unique_sort: accuracy against evaluation length (final evaluation; band: min-max over seeds; dotted: the longest training length)" font ",13"
set lmargin at screen 0.06394884093; set rmargin at screen 0.8633093525; set bmargin at screen 0.1129032258; set tmargin at screen 0.9032258065
set grid
set logscale x 2
set xrange [20.4:187.5]
set xtics ("train\n(1-50)" 25.5, "51" 51, "61" 61, "73" 73, "88" 88, "106" 106, "3x\n(150)" 150)
set xlabel offset 0,-0.6
set yrange [0:1.02]
set ytics 0,0.2
set arrow from 50, graph 0 to 50, graph 1 nohead dt 3 lc rgb "#666666"
set xlabel "evaluation length in input symbols (log scale; dotted: the longest training length)"
set ylabel "accuracy"
set key at screen 0.8753093525, screen 0.9032258065 left top Left reverse samplen 4 spacing 1.15 width 1 font ",11" box lc rgb "#bbbbbb"
plot "unique_sort_lengths.dat" index 0 using 1:3:4 with filledcurves lc rgb "#000000" fs transparent solid 0.15 noborder notitle, \
     "unique_sort_lengths.dat" index 0 using 1:2 with linespoints lc rgb "#000000" lw 2 dt 1 pt 7 ps 0.9 pi 12 title "none", \
     0.006666666667 with lines dt 2 lc rgb "#555555" lw 1.5 title "chance"
unset multiplot
set output
}

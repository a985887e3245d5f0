# order_distance.gp: accuracy against distance, task order
# Written by ordo; edit freely and redraw with: gnuplot order_distance.gp (writes order_distance.png and order_distance.svg)
set encoding utf8
do for [format in "png svg"] {
reset
if (format eq "png") {
  set terminal pngcairo size 1412,820 font "sans,11" noenhanced
} else {
  set terminal svg size 1412,820 font "sans,11" noenhanced background "#ffffff"
}
set output "order_distance." . format
set multiplot title "order: accuracy against distance, length 128 (final evaluation, seeds pooled)" font ",13"
set lmargin at screen 0.0566572238; set rmargin at screen 0.7648725212; set bmargin at screen 0.3414634146; set tmargin at screen 0.9268292683
set grid
set xrange [0:128]
set xtics 0,20
set yrange [0:1.02]
set ytics 0,0.2
set arrow from 31, graph 0 to 31, graph 1 nohead dt 3 lc rgb "#666666"
set xlabel ""
set ylabel "accuracy"
set key at screen 0.7768725212, screen 0.9268292683 left top Left reverse samplen 4 spacing 1.15 width 1 font ",11" box lc rgb "#bbbbbb"
plot "order_distance.dat" index 0 using 1:2 with linespoints lc rgb "#000000" lw 4 dt 1 pt 7 ps 0.9 pi 1 title "rope (rope-fraction=0.25)", \
     "order_distance.dat" index 1 using 1:2 with linespoints lc rgb "#E69F00" lw 1.5 dt 1 pt 5 ps 0.9 pi 1 title "rope (rope-fraction=0.5)", \
     0.5 with lines dt 2 lc rgb "#555555" lw 1.5 title "chance"
unset logscale
unset arrow
unset title
set lmargin at screen 0.0566572238; set rmargin at screen 0.7648725212; set bmargin at screen 0.07317073171; set tmargin at screen 0.243902439
set xrange [0:128]
set xtics 0,20
set format x "%g"
set format y "%g"
set yrange [0:124.2]
set ytics autofreq
set xlabel "distance (bins of 8); dotted: the longest trained distance"
set ylabel "scored rows"
unset key
set label 1 "scored rows per bin (seeds pooled; fewest over the series). Grey: fewer than 30, too few to read (standard error over 0.09): not drawn" at graph 0.01, graph 0.9 left font ",10"
set boxwidth 6.4 absolute
plot "order_distance.dat" index 2 using 1:3 with boxes fs solid 0.6 lc rgb "#bbbbbb" notitle, \
     '' index 2 using 1:4 with boxes fs solid 0.6 lc rgb "#555555" notitle, \
     30 with lines dt 2 lc rgb "#D55E00" notitle
unset multiplot
set output
}

void f()
{
    g(1, 2;
}

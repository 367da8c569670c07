// attnviz_ui_core_link_check (ui/CMakeLists.txt): linked with every object of attnviz_ui_core
// and nothing of the views, so that the link itself is the check; run, it does nothing.
int main() {
    return 0;
}

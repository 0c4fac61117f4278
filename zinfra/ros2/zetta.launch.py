# Launches Zetta beside MoveIt Servo (ROS 2 Humble or Jazzy):
#   ros2 launch zinfra/ros2/zetta.launch.py config:=zinfra/ros2/example.yaml
# Servo must already run for the robot (its own launch file, e.g. moveit_servo's demo); this readies
# Servo for Cartesian twists and starts the Zetta node through the package's `zetta` command.
import os

from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, ExecuteProcess, TimerAction
from launch.substitutions import LaunchConfiguration


def servo_ready_calls():
    """Humble's Servo waits for ~/start_servo; Jazzy's starts paused and takes its input type by service."""
    if os.environ.get('ROS_DISTRO') == 'humble':
        return [['ros2', 'service', 'call', '/servo_node/start_servo', 'std_srvs/srv/Trigger', '{}']]
    return [
        ['ros2', 'service', 'call', '/servo_node/switch_command_type', 'moveit_msgs/srv/ServoCommandType', '{command_type: 1}'],
        ['ros2', 'service', 'call', '/servo_node/pause_servo', 'std_srvs/srv/SetBool', '{data: false}'],
    ]


def generate_launch_description():
    config = LaunchConfiguration('config')
    zetta = LaunchConfiguration('zetta')
    return LaunchDescription([
        DeclareLaunchArgument('config', default_value='zinfra/ros2/example.yaml', description='the zetta ros2 config (YAML or JSON)'),
        DeclareLaunchArgument('zetta', default_value='node bin/zetta.js', description='how to run the zetta command'),
        *[ExecuteProcess(cmd=cmd, output='screen') for cmd in servo_ready_calls()],
        # Give Servo a moment to switch before the first twist arrives.
        TimerAction(period=2.0, actions=[
            ExecuteProcess(cmd=[zetta, ' ros2 --config ', config], shell=True, output='screen'),
        ]),
    ])
